import { describe, expect, it } from 'vitest';
import { isOtherOrigin, looksLikeImage, resolveUrl, safeImageUrl, safeLinkUrl } from './safe-url';

const BASE = 'https://dds.example.com';

describe('safeImageUrl', () => {
  it('keeps http(s) and blob images, and resolves a relative path against the base URL', () => {
    expect(safeImageUrl('https://cdn.example.org/a.png', BASE)).toBe('https://cdn.example.org/a.png');
    expect(safeImageUrl('http://cdn.example.org/a.png?x=1#y', BASE)).toBe('http://cdn.example.org/a.png?x=1#y');
    expect(safeImageUrl('/media/cat.jpg', BASE)).toBe('https://dds.example.com/media/cat.jpg');
    expect(safeImageUrl('  /media/cat.jpg  ', BASE)).toBe('https://dds.example.com/media/cat.jpg');
    expect(safeImageUrl('blob:https://dds.example.com/0c4e', BASE)).toBe('blob:https://dds.example.com/0c4e');
  });

  it('keeps data: URLs of image types only, as given', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(safeImageUrl(png, BASE)).toBe(png);
    expect(safeImageUrl('data:image/svg+xml,<svg/>', BASE)).toBe('data:image/svg+xml,<svg/>');
    expect(safeImageUrl('DATA:IMAGE/JPEG;base64,AAAA', BASE)).toBe('DATA:IMAGE/JPEG;base64,AAAA');
    expect(safeImageUrl('data:text/html,<script>alert(1)</script>', BASE)).toBeNull();
    expect(safeImageUrl('data:text/html;base64,PHNjcmlwdD4=', BASE)).toBeNull();
    expect(safeImageUrl('data:image/x-icon,AAAA', BASE)).toBeNull();
    // A type that only starts like an image type.
    expect(safeImageUrl('data:image/pngx,AAAA', BASE)).toBeNull();
  });

  it('refuses script and other schemes, however they are dressed up', () => {
    for (const hostile of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      '  javascript:alert(1)',
      '\u0001javascript:alert(1)',
      'java\tscript:alert(1)',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://example.org/a.png',
      'about:blank',
    ]) {
      expect(safeImageUrl(hostile, BASE), hostile).toBeNull();
    }
  });

  it('never lets a relative-looking path leave the base URL for another host', () => {
    // Browsers read "\" as "/" in http(s) URLs, so "/\host" is protocol-relative in disguise.
    expect(safeImageUrl('/\\evil.example/x.png', BASE)).toBeNull();
    expect(safeImageUrl('/\\\\evil.example/x.png', BASE)).toBeNull();
    expect(safeImageUrl('\\\\evil.example\\x.png', BASE)).toBeNull();
    expect(safeImageUrl('//evil.example/x.png', BASE)).toBeNull();
    // A tab or newline would be removed by the URL parser, turning "/\t/host" into "//host".
    expect(safeImageUrl('/\t/evil.example/x.png', BASE)).toBeNull();
    expect(safeImageUrl('/\n/evil.example/x.png', BASE)).toBeNull();
  });

  it('refuses whitespace inside a URL, over-long values, and anything that is not a string', () => {
    expect(safeImageUrl('https://cdn.example.org/a b.png', BASE)).toBeNull();
    expect(safeImageUrl('', BASE)).toBeNull();
    expect(safeImageUrl('   ', BASE)).toBeNull();
    expect(safeImageUrl(`https://cdn.example.org/${'a'.repeat(100_000)}.png`, BASE)).toBeNull();
    expect(safeImageUrl(`data:image/png;base64,${'A'.repeat(5_000_001)}`, BASE)).toBeNull();
    for (const wrong of [null, undefined, 42, NaN, {}, ['https://a.example/a.png'], { href: 'https://a.example' }]) {
      expect(safeImageUrl(wrong, BASE)).toBeNull();
    }
  });

  it('refuses a relative path when the base URL itself is not a URL', () => {
    expect(safeImageUrl('/media/cat.jpg', 'not a url')).toBeNull();
  });
});

describe('safeLinkUrl', () => {
  it('links absolute http(s) URLs and relative paths on the base URL', () => {
    expect(safeLinkUrl('https://example.org/doc?id=1', BASE)).toBe('https://example.org/doc?id=1');
    expect(safeLinkUrl('HTTP://example.org', BASE)).toBe('http://example.org/');
    expect(safeLinkUrl('/v1/items/42', BASE)).toBe('https://dds.example.com/v1/items/42');
  });

  it('links nothing else: scripts, data, blobs, protocol-relative or backslash tricks, plain words', () => {
    for (const hostile of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:image/png;base64,AAAA',
      'blob:https://dds.example.com/0c4e',
      '//evil.example/x',
      '/\\evil.example/x',
      '\\\\evil.example\\x',
      '/\t/evil.example/x',
      'https://exa mple.org',
      'mailto:a@example.org',
      'example.org',
      'hello',
      '',
    ]) {
      expect(safeLinkUrl(hostile, BASE), JSON.stringify(hostile)).toBeNull();
    }
    expect(safeLinkUrl(12, BASE)).toBeNull();
    expect(safeLinkUrl(null, BASE)).toBeNull();
  });
});

describe('resolveUrl', () => {
  it('parses absolute URLs and resolves relative paths on the base origin only', () => {
    expect(resolveUrl('https://a.example/x', BASE)?.href).toBe('https://a.example/x');
    expect(resolveUrl('/x/y', `${BASE}/some/path`)?.href).toBe('https://dds.example.com/x/y');
    expect(resolveUrl('/\\evil.example/x', BASE)).toBeNull();
    expect(resolveUrl('x/y', BASE)).toBeNull();
  });

  it('refuses every relative form that starts like a host, even one naming the base’s own host', () => {
    for (const disguised of [
      '/\\dds.example.com/x',
      '\\\\dds.example.com/x',
      '\\/dds.example.com/x',
      '//dds.example.com/x',
      '/\\/evil.example',
      '\\/evil.example/x',
      '\\evil.example',
    ]) {
      expect(resolveUrl(disguised, BASE), JSON.stringify(disguised)).toBeNull();
      expect(safeImageUrl(disguised, BASE), JSON.stringify(disguised)).toBeNull();
      expect(safeLinkUrl(disguised, BASE), JSON.stringify(disguised)).toBeNull();
    }
  });

  it('keeps a resolved path on the base’s origin: scheme, host and port', () => {
    expect(resolveUrl('/a/../../b?c#d', BASE)?.href).toBe('https://dds.example.com/b?c#d');
    expect(resolveUrl('/media/x.png', 'http://127.0.0.1:8787/console/')?.href).toBe('http://127.0.0.1:8787/media/x.png');
    expect(resolveUrl('/%2F%2Fevil.example/x', BASE)?.origin).toBe('https://dds.example.com');
    expect(resolveUrl('/x', 'not a url')).toBeNull();
  });
});

describe('isOtherOrigin', () => {
  it('compares scheme, host and port with the base URL; data: and blob: are never another origin', () => {
    expect(isOtherOrigin('https://dds.example.com/media/a.png', BASE)).toBe(false);
    expect(isOtherOrigin('https://dds.example.com:443/a.png', BASE)).toBe(false);
    expect(isOtherOrigin('http://dds.example.com/a.png', BASE)).toBe(true);
    expect(isOtherOrigin('https://dds.example.com:8443/a.png', BASE)).toBe(true);
    expect(isOtherOrigin('https://cdn.dds.example.com/a.png', BASE)).toBe(true);
    expect(isOtherOrigin('https://evil.example/pixel.png?leak=1', BASE)).toBe(true);
    expect(isOtherOrigin('data:image/png;base64,AAAA', BASE)).toBe(false);
    expect(isOtherOrigin('blob:https://dds.example.com/0c4e', BASE)).toBe(false);
    expect(isOtherOrigin('not a url', BASE)).toBe(true);
  });
});

describe('looksLikeImage', () => {
  it('goes by the key or the file extension', () => {
    expect(looksLikeImage('image_url', 'whatever')).toBe(true);
    expect(looksLikeImage('thumbnail', 'x')).toBe(true);
    expect(looksLikeImage('url', 'x')).toBe(true);
    expect(looksLikeImage('source', 'https://a.example/p.JPG?size=2')).toBe(true);
    expect(looksLikeImage('raw', 'data:image/png;base64,AAAA')).toBe(true);
    expect(looksLikeImage('homepage_url', 'https://a.example/')).toBe(false);
    expect(looksLikeImage('title', 'my.png.txt')).toBe(false);
  });
});
