// What a page reads as, whatever its media type: title, canonical URL, links and heading and text blocks.
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;
export type Block = { kind: 'heading'; level: HeadingLevel; text: string } | { kind: 'text'; text: string };

export interface ExtractedPage {
  url: string;
  title: string | null;
  canonicalUrl: string | null;
  blocks: Block[];
  links: string[];
}
