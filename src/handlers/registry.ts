// Explicit registration of every operation's handler; tsc fails here when one is missing.
import type { Handlers } from '../generated/handlers.ts';
import type { HandlerContext } from './context.ts';
import * as getHealth from './system/get-health.ts';
import * as signup from './users/signup.ts';
import * as login from './users/login.ts';
import * as getMe from './users/get-me.ts';
import * as listMembers from './members/list-members.ts';
import * as updateMemberRole from './members/update-member-role.ts';
import * as removeMember from './members/remove-member.ts';
import * as inviteMember from './members/invite-member.ts';
import * as acceptInvitation from './members/accept-invitation.ts';
import * as acceptInvitationAsMe from './members/accept-invitation-as-me.ts';
import * as listApiKeys from './api-keys/list-api-keys.ts';
import * as createApiKey from './api-keys/create-api-key.ts';
import * as revokeApiKey from './api-keys/revoke-api-key.ts';
import * as listEvents from './events/list-events.ts';
import * as listOperations from './operations/list-operations.ts';
import * as getOperation from './operations/get-operation.ts';
import * as cancelOperation from './operations/cancel-operation.ts';
import * as listWebhookEndpoints from './webhooks/list-webhook-endpoints.ts';
import * as createWebhookEndpoint from './webhooks/create-webhook-endpoint.ts';
import * as updateWebhookEndpoint from './webhooks/update-webhook-endpoint.ts';
import * as deleteWebhookEndpoint from './webhooks/delete-webhook-endpoint.ts';
import * as sendTestWebhook from './webhooks/send-test-webhook.ts';
import * as listWebhookDeliveries from './webhooks/list-webhook-deliveries.ts';
import * as startConnectorOauth from './connectors/start-connector-oauth.ts';
import * as listConnectors from './connectors/list-connectors.ts';
import * as getConnector from './connectors/get-connector.ts';
import * as revokeConnector from './connectors/revoke-connector.ts';
import * as sendTestEmail from './connectors/send-test-email.ts';
import * as listSandboxMessages from './connectors/list-sandbox-messages.ts';
import * as oauthCallback from './connectors/oauth-callback.ts';
import * as listKnowledgeSources from './knowledge/list-knowledge-sources.ts';
import * as ingestUrlIntoKnowledge from './knowledge/ingest-url-into-knowledge.ts';
import * as getKnowledgeSource from './knowledge/get-knowledge-source.ts';
import * as deleteKnowledgeSource from './knowledge/delete-knowledge-source.ts';
import * as refreshKnowledgeSource from './knowledge/refresh-knowledge-source.ts';
import * as listKnowledgeChunks from './knowledge/list-knowledge-chunks.ts';
import * as searchKnowledge from './knowledge/search-knowledge.ts';
import * as searchDocs from './docs/search-docs.ts';
import * as bulkImportLeads from './leads/bulk-import-leads.ts';
import * as getLeadImport from './leads/get-lead-import.ts';
import * as listLeadImportErrors from './leads/list-lead-import-errors.ts';
import * as listLeads from './leads/list-leads.ts';
import * as createLead from './leads/create-lead.ts';
import * as getLead from './leads/get-lead.ts';
import * as updateLead from './leads/update-lead.ts';
import * as deleteLead from './leads/delete-lead.ts';
import * as unsubscribeLead from './leads/unsubscribe-lead.ts';
import * as exportLeads from './leads/export-leads.ts';
import * as getLeadExport from './leads/get-lead-export.ts';
import * as downloadLeadExport from './leads/download-lead-export.ts';
import * as getWorkspaceSettings from './sequences/get-workspace-settings.ts';
import * as updateWorkspaceSettings from './sequences/update-workspace-settings.ts';
import * as listEmailSequences from './sequences/list-email-sequences.ts';
import * as createEmailSequence from './sequences/create-email-sequence.ts';
import * as getEmailSequence from './sequences/get-email-sequence.ts';
import * as updateEmailSequence from './sequences/update-email-sequence.ts';
import * as deleteEmailSequence from './sequences/delete-email-sequence.ts';
import * as previewEmailSequence from './sequences/preview-email-sequence.ts';
import * as submitEmailSequenceForApproval from './sequences/submit-email-sequence-for-approval.ts';
import * as approveEmailSequence from './sequences/approve-email-sequence.ts';
import * as rejectEmailSequence from './sequences/reject-email-sequence.ts';
import * as listSequenceEnrollments from './sequences/list-sequence-enrollments.ts';
import * as enrollLeadsInSequence from './sequences/enroll-leads-in-sequence.ts';
import * as removeLeadFromSequence from './sequences/remove-lead-from-sequence.ts';
import * as launchEmailSequence from './sequences/launch-email-sequence.ts';
import * as pauseEmailSequence from './sequences/pause-email-sequence.ts';
import * as resumeEmailSequence from './sequences/resume-email-sequence.ts';
import * as archiveEmailSequence from './sequences/archive-email-sequence.ts';
import * as listSentMessages from './sequences/list-sent-messages.ts';
import * as unsubscribePage from './sequences/unsubscribe-page.ts';
import * as unsubscribeOneClick from './sequences/unsubscribe-one-click.ts';
import * as listAgentsInStore from './agents/list-agents-in-store.ts';
import * as getAgent from './agents/get-agent.ts';
import * as runAgent from './agents/run-agent.ts';
import * as listAgentRuns from './agents/list-agent-runs.ts';
import * as getAgentRun from './agents/get-agent-run.ts';
import * as cancelAgentRun from './agents/cancel-agent-run.ts';
import * as listAdCampaigns from './ads/list-ad-campaigns.ts';
import * as createAdCampaign from './ads/create-ad-campaign.ts';
import * as getAdCampaign from './ads/get-ad-campaign.ts';
import * as updateAdCampaign from './ads/update-ad-campaign.ts';
import * as generateAdCreatives from './ads/generate-ad-creatives.ts';
import * as launchAdCampaign from './ads/launch-ad-campaign.ts';
import * as pauseAdCampaign from './ads/pause-ad-campaign.ts';
import * as resumeAdCampaign from './ads/resume-ad-campaign.ts';
import * as archiveAdCampaign from './ads/archive-ad-campaign.ts';
import * as listWebinars from './webinars/list-webinars.ts';
import * as scheduleWebinar from './webinars/schedule-webinar.ts';
import * as getWebinar from './webinars/get-webinar.ts';
import * as updateWebinar from './webinars/update-webinar.ts';
import * as cancelWebinar from './webinars/cancel-webinar.ts';
import * as listWebinarRegistrants from './webinars/list-webinar-registrants.ts';
import * as addWebinarRegistrants from './webinars/add-webinar-registrants.ts';
import * as removeWebinarRegistrant from './webinars/remove-webinar-registrant.ts';
import * as webinarRegistrationPage from './webinars/webinar-registration-page.ts';
import * as webinarRegister from './webinars/webinar-register.ts';
import * as webinarJoin from './webinars/webinar-join.ts';
import * as listBlogPosts from './blogs/list-blog-posts.ts';
import * as generateBlogPost from './blogs/generate-blog-post.ts';
import * as getBlogPost from './blogs/get-blog-post.ts';
import * as updateBlogPost from './blogs/update-blog-post.ts';
import * as deleteBlogPost from './blogs/delete-blog-post.ts';
import * as publishBlogPost from './blogs/publish-blog-post.ts';
import * as unpublishBlogPost from './blogs/unpublish-blog-post.ts';
import * as blogIndexPage from './blogs/blog-index-page.ts';
import * as blogFeed from './blogs/blog-feed.ts';
import * as blogSitemap from './blogs/blog-sitemap.ts';
import * as blogPostPage from './blogs/blog-post-page.ts';
import * as blogPostPreviewPage from './blogs/blog-post-preview-page.ts';

export const handlers: Handlers<HandlerContext> = {
  get_health: getHealth.handle,
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
  list_webhook_endpoints: listWebhookEndpoints.handle,
  create_webhook_endpoint: createWebhookEndpoint.handle,
  update_webhook_endpoint: updateWebhookEndpoint.handle,
  delete_webhook_endpoint: deleteWebhookEndpoint.handle,
  send_test_webhook: sendTestWebhook.handle,
  list_webhook_deliveries: listWebhookDeliveries.handle,
  start_connector_oauth: startConnectorOauth.handle,
  list_connectors: listConnectors.handle,
  get_connector: getConnector.handle,
  revoke_connector: revokeConnector.handle,
  send_test_email: sendTestEmail.handle,
  list_sandbox_messages: listSandboxMessages.handle,
  oauth_callback: oauthCallback.handle,
  list_knowledge_sources: listKnowledgeSources.handle,
  ingest_url_into_knowledge: ingestUrlIntoKnowledge.handle,
  get_knowledge_source: getKnowledgeSource.handle,
  delete_knowledge_source: deleteKnowledgeSource.handle,
  refresh_knowledge_source: refreshKnowledgeSource.handle,
  list_knowledge_chunks: listKnowledgeChunks.handle,
  search_knowledge: searchKnowledge.handle,
  search_docs: searchDocs.handle,
  bulk_import_leads: bulkImportLeads.handle,
  get_lead_import: getLeadImport.handle,
  list_lead_import_errors: listLeadImportErrors.handle,
  list_leads: listLeads.handle,
  create_lead: createLead.handle,
  get_lead: getLead.handle,
  update_lead: updateLead.handle,
  delete_lead: deleteLead.handle,
  unsubscribe_lead: unsubscribeLead.handle,
  export_leads: exportLeads.handle,
  get_lead_export: getLeadExport.handle,
  download_lead_export: downloadLeadExport.handle,
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
  list_agents_in_store: listAgentsInStore.handle,
  get_agent: getAgent.handle,
  run_agent: runAgent.handle,
  list_agent_runs: listAgentRuns.handle,
  get_agent_run: getAgentRun.handle,
  cancel_agent_run: cancelAgentRun.handle,
  list_ad_campaigns: listAdCampaigns.handle,
  create_ad_campaign: createAdCampaign.handle,
  get_ad_campaign: getAdCampaign.handle,
  update_ad_campaign: updateAdCampaign.handle,
  generate_ad_creatives: generateAdCreatives.handle,
  launch_ad_campaign: launchAdCampaign.handle,
  pause_ad_campaign: pauseAdCampaign.handle,
  resume_ad_campaign: resumeAdCampaign.handle,
  archive_ad_campaign: archiveAdCampaign.handle,
  list_webinars: listWebinars.handle,
  schedule_webinar: scheduleWebinar.handle,
  get_webinar: getWebinar.handle,
  update_webinar: updateWebinar.handle,
  cancel_webinar: cancelWebinar.handle,
  list_webinar_registrants: listWebinarRegistrants.handle,
  add_webinar_registrants: addWebinarRegistrants.handle,
  remove_webinar_registrant: removeWebinarRegistrant.handle,
  webinar_registration_page: webinarRegistrationPage.handle,
  webinar_register: webinarRegister.handle,
  webinar_join: webinarJoin.handle,
  list_blog_posts: listBlogPosts.handle,
  generate_blog_post: generateBlogPost.handle,
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
