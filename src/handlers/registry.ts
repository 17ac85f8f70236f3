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
import { createWebhookEndpoint } from './webhooks/create-webhook-endpoint.ts';
import { deleteWebhookEndpoint } from './webhooks/delete-webhook-endpoint.ts';
import { listWebhookDeliveries } from './webhooks/list-webhook-deliveries.ts';
import { listWebhookEndpoints } from './webhooks/list-webhook-endpoints.ts';
import { sendTestWebhook } from './webhooks/send-test-webhook.ts';
import { updateWebhookEndpoint } from './webhooks/update-webhook-endpoint.ts';
import * as getConnector from './connectors/get-connector.ts';
import * as listConnectors from './connectors/list-connectors.ts';
import * as listSandboxMessages from './connectors/list-sandbox-messages.ts';
import * as oauthCallback from './connectors/oauth-callback.ts';
import * as revokeConnector from './connectors/revoke-connector.ts';
import { sendTestEmail } from './connectors/send-test-email.ts';
import * as startConnectorOauth from './connectors/start-connector-oauth.ts';
import { ingestUrlIntoKnowledge } from './knowledge/ingest-url-into-knowledge.ts';
import { refreshKnowledgeSource } from './knowledge/refresh-knowledge-source.ts';
import { deleteKnowledgeSource, getKnowledgeSource, listKnowledgeChunks, listKnowledgeSources, searchKnowledge } from './knowledge/sources.ts';
import { searchDocs } from './docs/search-docs.ts';
import { downloadLeadExport, exportLeads, getLeadExport } from './leads/exports.ts';
import { bulkImportLeads, getLeadImport, listLeadImportErrors } from './leads/imports.ts';
import { createLead, deleteLead, getLead, listLeads, unsubscribeLead, updateLead } from './leads/leads.ts';
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
import * as archiveAdCampaign from './ads/archive-ad-campaign.ts';
import * as createAdCampaign from './ads/create-ad-campaign.ts';
import * as generateAdCreatives from './ads/generate-ad-creatives.ts';
import * as getAdCampaign from './ads/get-ad-campaign.ts';
import * as launchAdCampaign from './ads/launch-ad-campaign.ts';
import * as listAdCampaigns from './ads/list-ad-campaigns.ts';
import * as pauseAdCampaign from './ads/pause-ad-campaign.ts';
import * as resumeAdCampaign from './ads/resume-ad-campaign.ts';
import * as updateAdCampaign from './ads/update-ad-campaign.ts';
import * as cancelAgentRun from './agents/cancel-agent-run.ts';
import * as getAgent from './agents/get-agent.ts';
import * as getAgentRun from './agents/get-agent-run.ts';
import * as listAgentRuns from './agents/list-agent-runs.ts';
import * as listAgentsInStore from './agents/list-agents-in-store.ts';
import * as runAgent from './agents/run-agent.ts';
import * as deleteBlogPost from './blogs/delete-blog-post.ts';
import * as generateBlogPost from './blogs/generate-blog-post.ts';
import * as getBlogPost from './blogs/get-blog-post.ts';
import * as listBlogPosts from './blogs/list-blog-posts.ts';
import * as publishBlogPost from './blogs/publish-blog-post.ts';
import * as unpublishBlogPost from './blogs/unpublish-blog-post.ts';
import * as updateBlogPost from './blogs/update-blog-post.ts';
import * as blogFeed from './blogs/blog-feed.ts';
import * as blogIndexPage from './blogs/blog-index-page.ts';
import * as blogPostPage from './blogs/blog-post-page.ts';
import * as blogPostPreviewPage from './blogs/blog-post-preview-page.ts';
import * as blogSitemap from './blogs/blog-sitemap.ts';
import { getHealth } from './system/get-health.ts';
import { cancelWebinar, getWebinar, listWebinars, scheduleWebinar, updateWebinar } from './webinars/webinars.ts';
import { addWebinarRegistrants, listWebinarRegistrants, removeWebinarRegistrant } from './webinars/registrants.ts';
import { webinarJoin, webinarRegister, webinarRegistrationPage } from './webinars/pages.ts';
import { getMe } from './users/get-me.ts';
import { login } from './users/login.ts';
import { signup } from './users/signup.ts';

export const handlers: Handlers<HandlerContext> = {
  get_health: getHealth,
  list_agents_in_store: listAgentsInStore.handle,
  get_agent: getAgent.handle,
  run_agent: runAgent.handle,
  get_agent_run: getAgentRun.handle,
  list_agent_runs: listAgentRuns.handle,
  cancel_agent_run: cancelAgentRun.handle,
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
  list_webhook_endpoints: listWebhookEndpoints,
  create_webhook_endpoint: createWebhookEndpoint,
  update_webhook_endpoint: updateWebhookEndpoint,
  delete_webhook_endpoint: deleteWebhookEndpoint,
  send_test_webhook: sendTestWebhook,
  list_webhook_deliveries: listWebhookDeliveries,
  start_connector_oauth: startConnectorOauth.handle,
  list_connectors: listConnectors.handle,
  get_connector: getConnector.handle,
  revoke_connector: revokeConnector.handle,
  send_test_email: sendTestEmail,
  list_sandbox_messages: listSandboxMessages.handle,
  oauth_callback: oauthCallback.handle,
  ingest_url_into_knowledge: ingestUrlIntoKnowledge,
  list_knowledge_sources: listKnowledgeSources,
  get_knowledge_source: getKnowledgeSource,
  delete_knowledge_source: deleteKnowledgeSource,
  refresh_knowledge_source: refreshKnowledgeSource,
  list_knowledge_chunks: listKnowledgeChunks,
  search_knowledge: searchKnowledge,
  search_docs: searchDocs,
  bulk_import_leads: bulkImportLeads,
  get_lead_import: getLeadImport,
  list_lead_import_errors: listLeadImportErrors,
  list_leads: listLeads,
  export_leads: exportLeads,
  get_lead_export: getLeadExport,
  download_lead_export: downloadLeadExport,
  get_lead: getLead,
  create_lead: createLead,
  update_lead: updateLead,
  delete_lead: deleteLead,
  unsubscribe_lead: unsubscribeLead,
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
  list_ad_campaigns: listAdCampaigns.handle,
  create_ad_campaign: createAdCampaign.handle,
  get_ad_campaign: getAdCampaign.handle,
  update_ad_campaign: updateAdCampaign.handle,
  generate_ad_creatives: generateAdCreatives.handle,
  launch_ad_campaign: launchAdCampaign.handle,
  pause_ad_campaign: pauseAdCampaign.handle,
  resume_ad_campaign: resumeAdCampaign.handle,
  archive_ad_campaign: archiveAdCampaign.handle,
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
  generate_blog_post: generateBlogPost.handle,
  list_blog_posts: listBlogPosts.handle,
  get_blog_post: getBlogPost.handle,
  update_blog_post: updateBlogPost.handle,
  delete_blog_post: deleteBlogPost.handle,
  publish_blog_post: publishBlogPost.handle,
  unpublish_blog_post: unpublishBlogPost.handle,
  blog_index_page: blogIndexPage.handle,
  blog_feed: blogFeed.handle,
  blog_sitemap: blogSitemap.handle,
  blog_post_page: blogPostPage.handle,
  blog_post_preview_page: blogPostPreviewPage.handle,
};
