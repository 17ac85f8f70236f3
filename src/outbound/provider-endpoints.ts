// Where the connectors' providers are reached: live Google and Meta, or the service's own sandbox
// providers. Configuration built once (gmailEndpoints, metaEndpoints) and held by Deps.

export interface GmailEndpoints {
  mode: 'live' | 'sandbox';
  clientId: string;
  clientSecret: string;
  /** Opened in the human's browser. */
  authorizationUrl: string;
  tokenUrl: string;
  revocationUrl: string;
  userinfoUrl: string;
  gmailApiBase: string;
}

export interface MetaEndpoints {
  mode: 'live' | 'sandbox';
  appId: string;
  appSecret: string;
  /** Opened in the human's browser. */
  authorizationUrl: string;
  tokenUrl: string;
  graphApiBase: string;
}
