// A user, workspace, access token and API key for the authenticated rows, made through the real API
// of the running service (sign-up, then key minting with the token), as a client would.

export interface BenchCredentials {
  userId: string;
  workspaceId: string;
  /** JWT access token from sign-up. */
  token: string;
  /** An API key minted with that token (default scopes). */
  apiKey: string;
}

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${new URL(url).pathname}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export async function createCredentials(baseUrl: string): Promise<BenchCredentials> {
  const signup = await post<{ user: { id: string }; workspace: { id: string }; login: { access_token: string } }>(
    `${baseUrl}/api/v1/users/signup`,
    {
      email: `bench.${process.pid}.${Date.now()}@example.com`,
      password: 'correct horse battery staple',
      name: 'Bench User',
      workspace_name: 'Bench Workspace',
    },
  );
  const token = signup.login.access_token;
  const key = await post<{ key: string }>(`${baseUrl}/api/v1/api-keys`, { name: 'bench' }, token);
  return { userId: signup.user.id, workspaceId: signup.workspace.id, token, apiKey: key.key };
}
