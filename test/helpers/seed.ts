// A workspace seeded through the generated SDK with one resource of each kind an operation takes by
// id, keyed by parameter name (`key_id`, `user_id`, `token`), so data-driven tests can call every
// operation with ids that exist.
import { createClient } from '../../src/generated/sdk.ts';
import { uniqueEmail } from './app.ts';

export interface SeededWorkspace {
  credential: string;
  fixtures: Record<string, unknown>;
}

export async function seedWorkspace(baseUrl: string, tag = 'seed'): Promise<SeededWorkspace> {
  const anonymous = createClient({ baseUrl });
  const password = 'correct horse battery';
  const session = await anonymous.signup({
    email: uniqueEmail(tag),
    password,
    name: `${tag} owner`,
    workspace_name: tag,
  });
  const admin = createClient({ baseUrl, credential: session.login.access_token });
  const key = await admin.create_api_key({ name: `${tag} fixture` });
  const invitation = await admin.invite_member({ email: uniqueEmail('member'), role: 'member' });
  const member = await anonymous.accept_invitation({ token: invitation.token, name: `${tag} member`, password });
  const pending = await admin.invite_member({ email: uniqueEmail('invitee'), role: 'member' });
  const endpoint = await admin.create_webhook_endpoint({
    url: 'https://hooks.example.com/seed',
    event_types: ['member.*'],
  });
  const operation = await admin.send_test_webhook({ endpoint_id: endpoint.id });
  const connector = await admin.start_connector_oauth({ provider: 'gmail' });
  const ingest = await admin.ingest_url_into_knowledge({ url: 'https://www.example.com/about' });
  const leadImport = await admin.bulk_import_leads({
    rows: [{ email: `lead.${tag}@example.com`, first_name: 'Seed' }],
  });
  const leadResult = leadImport as { import: { id: string } };
  const lead = await admin.create_lead({ email: `other.${tag}@example.com` });
  const leadExport = await admin.export_leads({});
  return {
    credential: session.login.access_token,
    fixtures: {
      key_id: key.id,
      user_id: member.user.id,
      token: pending.token,
      endpoint_id: endpoint.id,
      operation_id: operation.id,
      connector_id: connector.id,
      source_id: ingest.resource?.id,
      import_id: leadResult.import.id,
      lead_id: lead.id,
      export_id: leadExport.resource?.id,
    },
  };
}
