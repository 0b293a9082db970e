/**
 * The shell commands a Markdown document shows, read from its ```sh blocks as a user would copy
 * them: continuation lines joined, comment lines dropped, a trailing comment kept apart (it says
 * what the command writes, or why it cannot run here).
 */
export interface DocCommand {
  /** The document and the block's index in it, to name a command in a failure. */
  source: string;
  block: number;
  /** The command as a shell would get it, without its trailing comment. */
  text: string;
  comment: string;
}

export function shellCommands(markdown: string, source: string): DocCommand[] {
  const out: DocCommand[] = [];
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  blocks.forEach((body, block) => {
    let pending = "";
    for (const raw of body.split("\n")) {
      const line = pending ? pending + " " + raw.trim() : raw;
      if (line.trimEnd().endsWith("\\")) {
        pending = line.trimEnd().slice(0, -1).trimEnd();
        continue;
      }
      pending = "";
      const { code, comment } = splitComment(line);
      if (code.trim() === "") continue;
      out.push({ source, block, text: code.trim(), comment: comment.trim() });
    }
  });
  return out;
}

/** Splits at the first `#` that starts a word outside quotes, as the shell reads a comment. */
export function splitComment(line: string): { code: string; comment: string } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "\\") i++;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return { code: line.slice(0, i), comment: line.slice(i + 1) };
  }
  return { code: line, comment: "" };
}

/** The `&&`-joined parts of a command, each run on its own (outside quotes). */
export function andParts(text: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "&" && text[i + 1] === "&") {
      parts.push(text.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}
