import sharp from 'sharp';
import { demoPicture, escapeXml } from './demo-pictures.js';

describe('demo pictures', () => {
  it('escapes every markup character of a label', () => {
    expect(escapeXml(`<script>alert("x") & 'y'</script>`)).toBe('&lt;script&gt;alert(&quot;x&quot;) &amp; &apos;y&apos;&lt;/script&gt;');
  });

  it('draws an 800×600 JPEG, whatever the label holds (markup in it changes nothing in the drawing)', async () => {
    for (const label of ['iPhone 12', 'MacBook Pro 13" Two Thunderbolt Ports 2020 Teardown', '</text><image href="file:///etc/passwd"/><text>', '&amp; <&> ""']) {
      const meta = await sharp(await demoPicture(label, 120)).metadata();
      expect([label, meta.format, meta.width, meta.height]).toEqual([label, 'jpeg', 800, 600]);
    }
  });
});
