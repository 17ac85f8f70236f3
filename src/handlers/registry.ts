// Explicit registration of every operation's handler; tsc fails here when one is missing.
import type { Handlers } from '../generated/handlers.ts';
import * as createApiKey from './api-keys/create-api-key.ts';
import * as listApiKeys from './api-keys/list-api-keys.ts';
import * as revokeApiKey from './api-keys/revoke-api-key.ts';
import type { HandlerContext } from './context.ts';
import * as listEvents from './events/list-events.ts';
import * as acceptInvitation from './members/accept-invitation.ts';
import * as acceptInvitationAsMe from './members/accept-invitation-as-me.ts';
import * as inviteMember from './members/invite-member.ts';
import * as listMembers from './members/list-members.ts';
import * as removeMember from './members/remove-member.ts';
import * as updateMemberRole from './members/update-member-role.ts';
import * as cancelOperation from './operations/cancel-operation.ts';
import * as getOperation from './operations/get-operation.ts';
import * as listOperations from './operations/list-operations.ts';
import { createWebhookEndpoint } from './webhooks/create-webhook-endpoint.ts';
import { deleteWebhookEndpoint } from './webhooks/delete-webhook-endpoint.ts';
import { listWebhookDeliveries } from './webhooks/list-webhook-deliveries.ts';
import { listWebhookEndpoints } from './webhooks/list-webhook-endpoints.ts';
import { sendTestWebhook } from './webhooks/send-test-webhook.ts';
import { updateWebhookEndpoint } from './webhooks/update-webhook-endpoint.ts';
import { getConnector } from './connectors/get-connector.ts';
import { listConnectors } from './connectors/list-connectors.ts';
import { listSandboxMessages } from './connectors/list-sandbox-messages.ts';
import { oauthCallback } from './connectors/oauth-callback.ts';
import { revokeConnector } from './connectors/revoke-connector.ts';
import * as sendTestEmail from './connectors/send-test-email.ts';
import { startConnectorOauth } from './connectors/start-connector-oauth.ts';
import { ingestUrlIntoKnowledge } from './knowledge/ingest-url-into-knowledge.ts';
import { refreshKnowledgeSource } from './knowledge/refresh-knowledge-source.ts';
import { deleteKnowledgeSource, getKnowledgeSource, listKnowledgeChunks, listKnowledgeSources, searchKnowledge } from './knowledge/sources.ts';
import * as searchDocs from './docs/search-docs.ts';
import { downloadLeadExport, exportLeads, getLeadExport } from './leads/exports.ts';
import { bulkImportLeads, getLeadImport, listLeadImportErrors } from './leads/imports.ts';
import { createLead, deleteLead, getLead, listLeads, unsubscribeLead, updateLead } from './leads/leads.ts';
import * as approveEmailSequence from './sequences/approve-email-sequence.ts';
import * as archiveEmailSequence from './sequences/archive-email-sequence.ts';
import * as createEmailSequence from './sequences/create-email-sequence.ts';
import * as deleteEmailSequence from './sequences/delete-email-sequence.ts';
import * as enrollLeadsInSequence from './sequences/enroll-leads-in-sequence.ts';
import * as getEmailSequence from './sequences/get-email-sequence.ts';
import * as getWorkspaceSettings from './sequences/get-workspace-settings.ts';
import * as launchEmailSequence from './sequences/launch-email-sequence.ts';
import * as listEmailSequences from './sequences/list-email-sequences.ts';
import * as listSentMessages from './sequences/list-sent-messages.ts';
import * as listSequenceEnrollments from './sequences/list-sequence-enrollments.ts';
import * as pauseEmailSequence from './sequences/pause-email-sequence.ts';
import * as previewEmailSequence from './sequences/preview-email-sequence.ts';
import * as rejectEmailSequence from './sequences/reject-email-sequence.ts';
import * as removeLeadFromSequence from './sequences/remove-lead-from-sequence.ts';
import * as resumeEmailSequence from './sequences/resume-email-sequence.ts';
import * as submitEmailSequenceForApproval from './sequences/submit-email-sequence-for-approval.ts';
import * as unsubscribeOneClick from './sequences/unsubscribe-one-click.ts';
import * as unsubscribePage from './sequences/unsubscribe-page.ts';
import * as updateEmailSequence from './sequences/update-email-sequence.ts';
import * as updateWorkspaceSettings from './sequences/update-workspace-settings.ts';
import { archiveAdCampaign, createAdCampaign, generateAdCreatives, getAdCampaign, launchAdCampaign, listAdCampaigns, pauseAdCampaign, resumeAdCampaign, updateAdCampaign } from './ads/campaigns.ts';
import { cancelAgentRun, getAgent, getAgentRun, listAgentRuns, listAgentsInStore, runAgent } from './agents/agents.ts';
import { deleteBlogPost, generateBlogPost, getBlogPost, listBlogPosts, publishBlogPost, unpublishBlogPost, updateBlogPost } from './blogs/posts.ts';
import { blogFeed, blogIndexPage, blogPostPage, blogPostPreviewPage, blogSitemap } from './blogs/public.ts';
import * as addWebinarRegistrants from './webinars/add-webinar-registrants.ts';
import * as cancelWebinar from './webinars/cancel-webinar.ts';
import * as getWebinar from './webinars/get-webinar.ts';
import * as listWebinarRegistrants from './webinars/list-webinar-registrants.ts';
import * as listWebinars from './webinars/list-webinars.ts';
import * as removeWebinarRegistrant from './webinars/remove-webinar-registrant.ts';
import * as scheduleWebinar from './webinars/schedule-webinar.ts';
import * as updateWebinar from './webinars/update-webinar.ts';
import * as webinarJoin from './webinars/webinar-join.ts';
import * as webinarRegister from './webinars/webinar-register.ts';
import * as webinarRegistrationPage from './webinars/webinar-registration-page.ts';
import * as getHealth from './system/get-health.ts';
import * as getMe from './users/get-me.ts';
import * as login from './users/login.ts';
import * as signup from './users/signup.ts';

export const handlers: Handlers<HandlerContext> = {
  get_health: getHealth.handle,
  list_agents_in_store: listAgentsInStore,
  get_agent: getAgent,
  run_agent: runAgent,
  get_agent_run: getAgentRun,
  list_agent_runs: listAgentRuns,
  cancel_agent_run: cancelAgentRun,
  signup: signup.handle,
  login: login.handle,
  get_me: getMe.handle,
  list_members: listMembers.handle,
  update_member_role: updateMemberRole.handle,
  remove_member: removeMember.handle,
  invite_member: inviteMember.handle,
  accept_invitation: acceptInvitation.handle,
  accept_invitation_as_me: acceptInvitationAsMe.handle,
  list_api_keys: listApiKeys.handle,
  create_api_key: createApiKey.handle,
  revoke_api_key: revokeApiKey.handle,
  list_events: listEvents.handle,
  list_operations: listOperations.handle,
  get_operation: getOperation.handle,
  cancel_operation: cancelOperation.handle,
  list_webhook_endpoints: listWebhookEndpoints,
  create_webhook_endpoint: createWebhookEndpoint,
  update_webhook_endpoint: updateWebhookEndpoint,
  delete_webhook_endpoint: deleteWebhookEndpoint,
  send_test_webhook: sendTestWebhook,
  list_webhook_deliveries: listWebhookDeliveries,
  start_connector_oauth: startConnectorOauth,
  list_connectors: listConnectors,
  get_connector: getConnector,
  revoke_connector: revokeConnector,
  send_test_email: sendTestEmail.handle,
  list_sandbox_messages: listSandboxMessages,
  oauth_callback: oauthCallback,
  ingest_url_into_knowledge: ingestUrlIntoKnowledge,
  list_knowledge_sources: listKnowledgeSources,
  get_knowledge_source: getKnowledgeSource,
  delete_knowledge_source: deleteKnowledgeSource,
  refresh_knowledge_source: refreshKnowledgeSource,
  list_knowledge_chunks: listKnowledgeChunks,
  search_knowledge: searchKnowledge,
  search_docs: searchDocs.handle,
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
  get_workspace_settings: getWorkspaceSettings.handle,
  update_workspace_settings: updateWorkspaceSettings.handle,
  list_email_sequences: listEmailSequences.handle,
  create_email_sequence: createEmailSequence.handle,
  get_email_sequence: getEmailSequence.handle,
  update_email_sequence: updateEmailSequence.handle,
  delete_email_sequence: deleteEmailSequence.handle,
  preview_email_sequence: previewEmailSequence.handle,
  submit_email_sequence_for_approval: submitEmailSequenceForApproval.handle,
  approve_email_sequence: approveEmailSequence.handle,
  reject_email_sequence: rejectEmailSequence.handle,
  list_sequence_enrollments: listSequenceEnrollments.handle,
  enroll_leads_in_sequence: enrollLeadsInSequence.handle,
  remove_lead_from_sequence: removeLeadFromSequence.handle,
  launch_email_sequence: launchEmailSequence.handle,
  pause_email_sequence: pauseEmailSequence.handle,
  resume_email_sequence: resumeEmailSequence.handle,
  archive_email_sequence: archiveEmailSequence.handle,
  list_sent_messages: listSentMessages.handle,
  unsubscribe_page: unsubscribePage.handle,
  unsubscribe_one_click: unsubscribeOneClick.handle,
  list_ad_campaigns: listAdCampaigns,
  create_ad_campaign: createAdCampaign,
  get_ad_campaign: getAdCampaign,
  update_ad_campaign: updateAdCampaign,
  generate_ad_creatives: generateAdCreatives,
  launch_ad_campaign: launchAdCampaign,
  pause_ad_campaign: pauseAdCampaign,
  resume_ad_campaign: resumeAdCampaign,
  archive_ad_campaign: archiveAdCampaign,
  schedule_webinar: scheduleWebinar.handle,
  get_webinar: getWebinar.handle,
  list_webinars: listWebinars.handle,
  update_webinar: updateWebinar.handle,
  cancel_webinar: cancelWebinar.handle,
  add_webinar_registrants: addWebinarRegistrants.handle,
  list_webinar_registrants: listWebinarRegistrants.handle,
  remove_webinar_registrant: removeWebinarRegistrant.handle,
  webinar_registration_page: webinarRegistrationPage.handle,
  webinar_register: webinarRegister.handle,
  webinar_join: webinarJoin.handle,
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
