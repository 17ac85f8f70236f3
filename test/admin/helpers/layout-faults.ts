// What the layout test looks for on a page, run inside the page (page.evaluate(layoutFaults)): it must be
// self-contained, as Playwright sends its source. Returns one line per fault, empty when the page holds. And
// holdsLayout, the per-page check the page tests make at the three widths.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The document's sideways scroll, clipped or hidden action buttons, table cells wrapping letter by letter. */
export function layoutFaults(): string[] {
  const faults: string[] = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    // Name the culprits: the outermost elements that reach past the edge while their parent does not.
    const past = (el: Element | null) => !!el && el.getBoundingClientRect().right > root.clientWidth + 1;
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => past(el) && !past(el.parentElement))
      .slice(0, 3)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).trim().split(/\s+/).join('.')}`);
    faults.push(`the document is ${root.scrollWidth}px wide in ${root.clientWidth}px (${culprits.join(', ')})`);
  }

  const describe = (el: Element) =>
    `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).trim().split(/\s+/).join('.')}` : ''} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 40)}"`;
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };

  // A button is fine if, once scrolled into view (by whatever container scrolls it), the viewport and every
  // ancestor that clips its overflow show all of it.
  for (const button of document.querySelectorAll('.btn')) {
    if (!shown(button)) continue;
    button.scrollIntoView({ block: 'center', inline: 'nearest' });
    const r = button.getBoundingClientRect();
    if (r.left < -0.5 || r.right > root.clientWidth + 0.5)
      faults.push(`${describe(button)} lies outside the viewport (${Math.round(r.left)}–${Math.round(r.right)}px)`);
    for (let a = button.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = a.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) {
        faults.push(`${describe(button)} is clipped by ${describe(a).slice(0, 60)}`);
        break;
      }
    }
  }

  // Letter-by-letter wrapping: a word (letters between spaces and hyphens) broken over lines of fewer than
  // eight letters each, or a cell whose text column is narrower than three characters while it holds a word.
  for (const cell of document.querySelectorAll('table td, table th')) {
    if (!shown(cell)) continue;
    const style = getComputedStyle(cell);
    const fontSize = Number.parseFloat(style.fontSize);
    const inner = cell.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    const word = /[^\s-]{4,}/.exec(cell.textContent ?? '')?.[0];
    if (word && inner < 3 * fontSize) {
      faults.push(`a cell ${Math.round(inner)}px wide holds "${word.slice(0, 30)}"`);
      continue;
    }
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[^\s-]{4,}/g)) {
        const range = document.createRange();
        const start = match.index ?? 0;
        range.setStart(node, start);
        range.setEnd(node, start + match[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        if (lines >= 2 && match[0].length / lines < 8)
          faults.push(`"${match[0].slice(0, 30)}" wraps over ${lines} lines`);
      }
    }
  }
  return faults;
}

/**
 * At each width the page's content stays within the main column (wide tables scroll inside their wrapper) and
 * `button` can be brought fully into view. (The shell's own sidebar and top bar are not this page's to check.)
 */
export async function holdsLayout(page: Page, button: Locator) {
  for (const width of [390, 768, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const main = page.locator('main');
    expect(await main.evaluate((el) => el.scrollWidth <= el.clientWidth), `${width}px`).toBe(true);
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width, `${width}px`).toBe(true);
  }
}
