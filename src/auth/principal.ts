// Who a verified credential belongs to: what the authenticator resolves and every request carries.

export interface Principal {
  kind: 'jwt' | 'api_key';
  userId: string;
  workspaceId: string;
  role: 'owner' | 'admin' | 'member';
  scopes: string[];
  /** API key id for `api_key`, the token's `jti` for `jwt`. */
  credentialId: string;
}

/**
 * A person's login that names no workspace: every membership of theirs was removed. It can accept an
 * invitation; every workspace operation refuses it with 403 `no_workspace`.
 */
export interface AccountLogin {
  kind: 'account';
  userId: string;
  /** The token's `jti`. */
  credentialId: string;
}
