// Explicit registration of every operation's handler; tsc fails here when one is missing.
import type { Handlers } from '../generated/handlers.ts';
import { createApiKey } from './api-keys/create-api-key.ts';
import { listApiKeys } from './api-keys/list-api-keys.ts';
import { revokeApiKey } from './api-keys/revoke-api-key.ts';
import type { HandlerContext } from './context.ts';
import * as listEvents from './events/list-events.ts';
import { acceptInvitation } from './members/accept-invitation.ts';
import { acceptInvitationAsMe } from './members/accept-invitation-as-me.ts';
import { inviteMember } from './members/invite-member.ts';
import { listMembers } from './members/list-members.ts';
import { removeMember } from './members/remove-member.ts';
import { updateMemberRole } from './members/update-member-role.ts';
import { cancelOperation } from './operations/cancel-operation.ts';
import { getOperation } from './operations/get-operation.ts';
import * as listOperations from './operations/list-operations.ts';
import * as createWebhookEndpoint from './webhooks/create-webhook-endpoint.ts';
import * as deleteWebhookEndpoint from './webhooks/delete-webhook-endpoint.ts';
import * as listWebhookDeliveries from './webhooks/list-webhook-deliveries.ts';
import * as listWebhookEndpoints from './webhooks/list-webhook-endpoints.ts';
import * as sendTestWebhook from './webhooks/send-test-webhook.ts';
import * as updateWebhookEndpoint from './webhooks/update-webhook-endpoint.ts';
import { getConnector } from './connectors/get-connector.ts';
import { listConnectors } from './connectors/list-connectors.ts';
import { listSandboxMessages } from './connectors/list-sandbox-messages.ts';
import { oauthCallback } from './connectors/oauth-callback.ts';
import { revokeConnector } from './connectors/revoke-connector.ts';
import { sendTestEmail } from './connectors/send-test-email.ts';
import { startConnectorOauth } from './connectors/start-connector-oauth.ts';
import * as deleteKnowledgeSource from './knowledge/delete-knowledge-source.ts';
import * as getKnowledgeSource from './knowledge/get-knowledge-source.ts';
import * as ingestUrlIntoKnowledge from './knowledge/ingest-url-into-knowledge.ts';
import * as listKnowledgeChunks from './knowledge/list-knowledge-chunks.ts';
import * as listKnowledgeSources from './knowledge/list-knowledge-sources.ts';
import * as refreshKnowledgeSource from './knowledge/refresh-knowledge-source.ts';
import * as searchKnowledge from './knowledge/search-knowledge.ts';
import { searchDocs } from './docs/search-docs.ts';
import * as bulkImportLeads from './leads/bulk-import-leads.ts';
import * as createLead from './leads/create-lead.ts';
import * as deleteLead from './leads/delete-lead.ts';
import * as downloadLeadExport from './leads/download-lead-export.ts';
import * as exportLeads from './leads/export-leads.ts';
import * as getLead from './leads/get-lead.ts';
import * as getLeadExport from './leads/get-lead-export.ts';
import * as getLeadImport from './leads/get-lead-import.ts';
import * as listLeadImportErrors from './leads/list-lead-import-errors.ts';
import * as listLeads from './leads/list-leads.ts';
import * as unsubscribeLead from './leads/unsubscribe-lead.ts';
import * as updateLead from './leads/update-lead.ts';
import { archiveEmailSequence, createEmailSequence, deleteEmailSequence, getEmailSequence, listEmailSequences, previewEmailSequence, updateEmailSequence } from './sequences/sequences.ts';
import {
  approveEmailSequence,
  enrollLeadsInSequence,
  launchEmailSequence,
  listSentMessages,
  listSequenceEnrollments,
  pauseEmailSequence,
  rejectEmailSequence,
  removeLeadFromSequence,
  resumeEmailSequence,
  submitEmailSequenceForApproval,
} from './sequences/lifecycle.ts';
import { getWorkspaceSettings, updateWorkspaceSettings } from './sequences/settings.ts';
import { unsubscribeOneClick, unsubscribePage } from './sequences/unsubscribe.ts';
import { archiveAdCampaign, createAdCampaign, generateAdCreatives, getAdCampaign, launchAdCampaign, listAdCampaigns, pauseAdCampaign, resumeAdCampaign, updateAdCampaign } from './ads/campaigns.ts';
import { cancelAgentRun, getAgent, getAgentRun, listAgentRuns, listAgentsInStore, runAgent } from './agents/agents.ts';
import { deleteBlogPost, generateBlogPost, getBlogPost, listBlogPosts, publishBlogPost, unpublishBlogPost, updateBlogPost } from './blogs/posts.ts';
import { blogFeed, blogIndexPage, blogPostPage, blogPostPreviewPage, blogSitemap } from './blogs/public.ts';
import { getHealth } from './system/get-health.ts';
import { cancelWebinar, getWebinar, listWebinars, scheduleWebinar, updateWebinar } from './webinars/webinars.ts';
import { addWebinarRegistrants, listWebinarRegistrants, removeWebinarRegistrant } from './webinars/registrants.ts';
import { webinarJoin, webinarRegister, webinarRegistrationPage } from './webinars/pages.ts';
import { getMe } from './users/get-me.ts';
import { login } from './users/login.ts';
import { signup } from './users/signup.ts';

export const handlers: Handlers<HandlerContext> = {
  get_health: getHealth,
  list_agents_in_store: listAgentsInStore,
  get_agent: getAgent,
  run_agent: runAgent,
  get_agent_run: getAgentRun,
  list_agent_runs: listAgentRuns,
  cancel_agent_run: cancelAgentRun,
  signup,
  login,
  get_me: getMe,
  list_members: listMembers,
  update_member_role: updateMemberRole,
  remove_member: removeMember,
  invite_member: inviteMember,
  accept_invitation: acceptInvitation,
  accept_invitation_as_me: acceptInvitationAsMe,
  list_api_keys: listApiKeys,
  create_api_key: createApiKey,
  revoke_api_key: revokeApiKey,
  list_events: listEvents.handle,
  list_operations: listOperations.handle,
  get_operation: getOperation,
  cancel_operation: cancelOperation,
  list_webhook_endpoints: listWebhookEndpoints.handle,
  create_webhook_endpoint: createWebhookEndpoint.handle,
  update_webhook_endpoint: updateWebhookEndpoint.handle,
  delete_webhook_endpoint: deleteWebhookEndpoint.handle,
  send_test_webhook: sendTestWebhook.handle,
  list_webhook_deliveries: listWebhookDeliveries.handle,
  start_connector_oauth: startConnectorOauth,
  list_connectors: listConnectors,
  get_connector: getConnector,
  revoke_connector: revokeConnector,
  send_test_email: sendTestEmail,
  list_sandbox_messages: listSandboxMessages,
  oauth_callback: oauthCallback,
  ingest_url_into_knowledge: ingestUrlIntoKnowledge.handle,
  list_knowledge_sources: listKnowledgeSources.handle,
  get_knowledge_source: getKnowledgeSource.handle,
  delete_knowledge_source: deleteKnowledgeSource.handle,
  refresh_knowledge_source: refreshKnowledgeSource.handle,
  list_knowledge_chunks: listKnowledgeChunks.handle,
  search_knowledge: searchKnowledge.handle,
  search_docs: searchDocs,
  bulk_import_leads: bulkImportLeads.handle,
  get_lead_import: getLeadImport.handle,
  list_lead_import_errors: listLeadImportErrors.handle,
  list_leads: listLeads.handle,
  export_leads: exportLeads.handle,
  get_lead_export: getLeadExport.handle,
  download_lead_export: downloadLeadExport.handle,
  get_lead: getLead.handle,
  create_lead: createLead.handle,
  update_lead: updateLead.handle,
  delete_lead: deleteLead.handle,
  unsubscribe_lead: unsubscribeLead.handle,
  get_workspace_settings: getWorkspaceSettings,
  update_workspace_settings: updateWorkspaceSettings,
  list_email_sequences: listEmailSequences,
  create_email_sequence: createEmailSequence,
  get_email_sequence: getEmailSequence,
  update_email_sequence: updateEmailSequence,
  delete_email_sequence: deleteEmailSequence,
  preview_email_sequence: previewEmailSequence,
  submit_email_sequence_for_approval: submitEmailSequenceForApproval,
  approve_email_sequence: approveEmailSequence,
  reject_email_sequence: rejectEmailSequence,
  list_sequence_enrollments: listSequenceEnrollments,
  enroll_leads_in_sequence: enrollLeadsInSequence,
  remove_lead_from_sequence: removeLeadFromSequence,
  launch_email_sequence: launchEmailSequence,
  pause_email_sequence: pauseEmailSequence,
  resume_email_sequence: resumeEmailSequence,
  archive_email_sequence: archiveEmailSequence,
  list_sent_messages: listSentMessages,
  unsubscribe_page: unsubscribePage,
  unsubscribe_one_click: unsubscribeOneClick,
  list_ad_campaigns: listAdCampaigns,
  create_ad_campaign: createAdCampaign,
  get_ad_campaign: getAdCampaign,
  update_ad_campaign: updateAdCampaign,
  generate_ad_creatives: generateAdCreatives,
  launch_ad_campaign: launchAdCampaign,
  pause_ad_campaign: pauseAdCampaign,
  resume_ad_campaign: resumeAdCampaign,
  archive_ad_campaign: archiveAdCampaign,
  schedule_webinar: scheduleWebinar,
  get_webinar: getWebinar,
  list_webinars: listWebinars,
  update_webinar: updateWebinar,
  cancel_webinar: cancelWebinar,
  add_webinar_registrants: addWebinarRegistrants,
  list_webinar_registrants: listWebinarRegistrants,
  remove_webinar_registrant: removeWebinarRegistrant,
  webinar_registration_page: webinarRegistrationPage,
  webinar_register: webinarRegister,
  webinar_join: webinarJoin,
  generate_blog_post: generateBlogPost,
  list_blog_posts: listBlogPosts,
  get_blog_post: getBlogPost,
  update_blog_post: updateBlogPost,
  delete_blog_post: deleteBlogPost,
  publish_blog_post: publishBlogPost,
  unpublish_blog_post: unpublishBlogPost,
  blog_index_page: blogIndexPage,
  blog_feed: blogFeed,
  blog_sitemap: blogSitemap,
  blog_post_page: blogPostPage,
  blog_post_preview_page: blogPostPreviewPage,
};
