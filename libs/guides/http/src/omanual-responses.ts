import type { Type } from '@nestjs/common';
import { guideDocument, type GuideBody } from './omanual-guide.mapper.js';
import { XmlAlternative, type XmlAlternativeOptions } from '@rc/shared-http';

const GUIDE_EXAMPLE =
  '<?xml version="1.0" encoding="UTF-8"?><guide xmlns="http://omanual.com/" locale="en"><title subject="Battery" type="replacement">iPhone 12 Battery Replacement</title>' +
  '<summary>Replace a worn battery.</summary><image/><author id="2">Alice</author>…<steps><step number="0" title="Disconnect the battery"><lines>' +
  '<line bullet="black" level="0" text_raw="Remove the four screws.">Remove the four screws.</line></lines></step></steps>…</guide>';

/** `GET /guides/{id}` in XML: an oManual guide document with the original's `*_raw` attributes. */
export function GuideXml(json: Type<unknown> | Record<string, unknown>, errors: readonly number[], examples: Pick<XmlAlternativeOptions, 'badRequest' | 'forbidden'> = {}): MethodDecorator {
  return XmlAlternative({
    render: (body: GuideBody, { pretty }) => guideDocument(body, { raw: true, pretty }),
    json,
    xml: 'an oManual guide document (omanual_guide.xsd; `introduction_raw`, `conclusion_raw` and `text_raw` attributes carry the markup beside the rendered text)',
    example: GUIDE_EXAMPLE,
    errors,
    notFound: 'Guide not found',
    ...examples,
  });
}
