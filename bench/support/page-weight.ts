/**
 * What a modern browser downloads for a page's first view: the module scripts
 * named in its HTML (not the `nomodule` polyfill a modern browser skips),
 * measured gzip-compressed as the server sends them.
 */
import { gzipSync } from "node:zlib";

export type PageWeight = { path: string; scripts: number; jsGzipBytes: number; cssGzipBytes: number; htmlGzipBytes: number };

const gzipSize = (text: string) => gzipSync(Buffer.from(text)).length;

async function text(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

export async function pageWeight(baseUrl: string, path: string): Promise<PageWeight> {
  const html = await text(baseUrl + path);
  const scripts = [...html.matchAll(/<script\b([^>]*)\bsrc="([^"]+)"([^>]*)>/g)]
    .filter(([, before, , after]) => !/\bnomodule\b/i.test(`${before} ${after}`))
    .map(([, , src]) => src!);
  const styles = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map(([, href]) => href!);
  const unique = (list: string[]) => [...new Set(list)];
  const sizes = async (urls: string[]) =>
    (await Promise.all(unique(urls).map(async (src) => gzipSize(await text(new URL(src, baseUrl).toString()))))).reduce((a, b) => a + b, 0);
  return {
    path,
    scripts: unique(scripts).length,
    jsGzipBytes: await sizes(scripts),
    cssGzipBytes: await sizes(styles),
    htmlGzipBytes: gzipSize(html),
  };
}
