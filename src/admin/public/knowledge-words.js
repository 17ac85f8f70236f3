// How a knowledge source's state reads: one badge per status, named in words (not colour alone).
import { badge } from './dom.js';

const STATUS = /** @type {const} */ ({
  queued: ['Queued', 'gray'],
  fetching: ['Fetching', 'indigo'],
  ready: ['Ready', 'green'],
  failed: ['Failed', 'red'],
});

/** @param {{ status: string }} source */
export function sourceStatus(source) {
  const [label, tone] = STATUS[/** @type {keyof typeof STATUS} */ (source.status)] ?? [source.status, 'gray'];
  return badge(label, tone);
}

/** Whether a fetch of the source is queued or under way (a refresh would be refused). @param {{ status: string }} source */
export function busyFetching(source) {
  return source.status === 'queued' || source.status === 'fetching';
}

/** "3 pages", "1 passage". @param {number} count @param {string} one @param {string} many */
export function counted(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}
