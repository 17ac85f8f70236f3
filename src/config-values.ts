// Reading values out of the environment: whole numbers, lists, second schedules and millisecond ranges,
// each failing with a message naming the variable.

export type Env = Record<string, string | undefined>;

export function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function seconds(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return list(raw).map((part) => {
    const value = Number(part);
    if (!Number.isInteger(value) || value < 0)
      throw new Error(`${name} must be comma-separated whole seconds, got "${raw}"`);
    return value;
  });
}

export function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function range(env: Env, name: string, fallback: { min: number; max: number }): { min: number; max: number } {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const match = /^(\d+)(?:-(\d+))?$/.exec(raw);
  if (!match) throw new Error(`${name} must be milliseconds or a range such as 2000-8000, got "${raw}"`);
  const min = Number(match[1]);
  const max = Number(match[2] ?? match[1]);
  if (max < min) throw new Error(`${name}: the range's end is below its start`);
  return { min, max };
}
