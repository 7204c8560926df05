// The four articles BufLab's experiments come from, as the About panel
// credits them and the lessons name them. Lessons refer to an article by its
// number (the engine's `Lesson.seed`: "000", "001", "002", "004").
//
// Only what our copies of the articles say is written here: a title, an
// author or a link appears when the text gives it; otherwise `known` says
// what the text does tell, and nothing is guessed.

export interface Article {
  /** The number lessons use for it. */
  id: string;
  /** How the page refers to it in running text: "the BufRead article". */
  short: string;
  /** Its title as published, or a description where the text has no title. */
  title: string;
  /** True when `title` is the article's own title. */
  titled: boolean;
  /** Who wrote it, as the text names them; null where it does not. */
  author: string | null;
  /** Where it was published, when the text says. */
  where: string | null;
  date: string | null;
  /** A link the text itself gives (to the article's site or project); `text` says what it points at. */
  link: { href: string; text: string } | null;
  /** What the text does tell about its origin, where author or address are missing. */
  known: string;
  /** What BufLab takes from it. */
  used: string;
}

export const ARTICLES: readonly Article[] = [
  {
    id: "000",
    short: "the BufRead article",
    title: "Rust's BufRead, And When To Use It",
    titled: true,
    author: null,
    where: null,
    date: "28 February 2023",
    link: { href: "https://github.com/brundonsmith/read-demo", text: "github.com/brundonsmith/read-demo (its example project)" },
    known: "The text names no author and gives no address of its own; it links the example project it measures.",
    used: "1 MB read one byte at a time, with and without BufReader; when a buffer does not help (large reads, many streams).",
  },
  {
    id: "001",
    short: "the file-reading article",
    title: "Reading files quickly in Rust",
    titled: true,
    author: null,
    where: "boyter.org",
    date: "27 May 2018",
    link: { href: "https://boyter.org/", text: "boyter.org" },
    known: "Published on boyter.org, the site the text links for its author's earlier posts; the text gives no author's name and no address of its own.",
    used: "Read::bytes() on an unbuffered file against read_to_end into a pre-sized Vec, scanning for a NUL byte.",
  },
  {
    id: "002",
    short: "the Monibuca article",
    title: "BufReader: Zero-Copy Network Reading with Advanced Memory Management",
    titled: true,
    author: null,
    where: "the Monibuca project's wiki",
    date: "13 October 2025 (last edit)",
    link: null,
    known: "A page of the Monibuca project's GitHub wiki, last edited by “dexter”; our copy does not give its address.",
    used: "A zero-copy reader over pooled blocks against a fixed buffer, under the good, normal, poor and worst network chunkings; protocol frames; allocations per run.",
  },
  {
    id: "004",
    short: "the write-cursor article",
    title: "An article on in-memory std::io::Write cursors in Rust",
    titled: false,
    author: "@codeandbitters (the Twitter handle the text signs with)",
    where: null,
    date: null,
    link: null,
    known: "Our copy has no title line and no address; its author asks for comments on Twitter as @codeandbitters.",
    used: "Seven in-memory write cursors serializing 2048 records of 16 bytes with bincode into 32 KiB, and their qualities.",
  },
];

/** The article a lesson names by number; undefined for a lesson of BufLab's own (a sweep). */
export function articleOf(id: string): Article | undefined {
  return ARTICLES.find((a) => a.id === id);
}
