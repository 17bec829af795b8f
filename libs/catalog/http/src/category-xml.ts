import type { Type } from '@nestjs/common';
import { XmlAlternative } from '@rc/shared-http';
import { categoryDocument, type CategoryBody } from './omanual-category.mapper.js';

const CATEGORY_EXAMPLE =
  '<?xml version="1.0" encoding="UTF-8"?><category xmlns="http://omanual.com/" locale="en"><title>iPhone 12</title><category_info>iPhone 12</category_info>' +
  '<image/><description>…</description><flags/><ancestors><ancestor>iPhone</ancestor><ancestor>Phone</ancestor></ancestors><children/>…' +
  '<guides><guide id="2" subject="Battery" type="replacement"><title>iPhone 12 Battery Replacement</title><url>…</url><path>iPhone-12-Battery-Replacement-2/guide.xml</path><image/></guide></guides><documents/></category>';

/** `GET /categories/{name}` in XML: an oManual category document with a `contents_raw` attribute. */
export function CategoryXml(json: Type<unknown> | Record<string, unknown>, errors: readonly number[]): MethodDecorator {
  return XmlAlternative({
    render: (body: CategoryBody, { pretty }) => categoryDocument(body, { raw: true, pretty }),
    json,
    xml: 'an oManual category document (omanual_category.xsd; a `contents_raw` attribute carries the markup beside the rendered contents)',
    example: CATEGORY_EXAMPLE,
    errors,
    notFound: 'Wiki not found',
  });
}
