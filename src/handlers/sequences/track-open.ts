// Placeholder while issue 30 is being built on its branches; replaced before it lands.
export async function handle(): Promise<never> {
  throw new Error('not built yet');
}
