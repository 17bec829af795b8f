import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { documentConditionalRequests } from '@rc/shared-http';

export const DOCS_PATH = 'api/2.0/docs';

export function buildOpenApiDocument(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Repair-Content API')
    .setVersion('2.0')
    .setDescription(
      'Guides, categories, users, teams and badges of a repair-information site, compatible with the public ' +
        'repair-content API 2.0. Errors are `{"error": true, "message": "..."}`; 422 adds `errors`. ' +
        'Append `?pretty` to any request for indented JSON. Authenticate with `Authorization: api <token>` ' +
        '(from `POST /user/token`); login and registration also need a registered `X-App-Id`.',
    )
    .addServer(publicBaseUrl)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: 'The word `api`, a space, and the token: `api <token>`' }, 'api')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-App-Id', description: 'A registered application id' }, 'appId')
    .build();
  return documentConditionalRequests(SwaggerModule.createDocument(app, config));
}

export function serveSwagger(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: `${DOCS_PATH}-json`,
    yamlDocumentUrl: `${DOCS_PATH}-yaml`,
    customSiteTitle: 'Repair-Content API 2.0',
  });
}
