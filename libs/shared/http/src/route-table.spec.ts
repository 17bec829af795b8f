import { RouteTable } from './route-table.js';

describe('RouteTable', () => {
  const table = new RouteTable();
  table.add('get', '/api/2.0/guides');
  table.add('post', '/api/2.0/guides');
  table.add('get', '/api/2.0/guides/featured');
  table.add('get', '/api/2.0/guides/:guideid');
  table.add('patch', '/api/2.0/guides/:guideid');
  table.add('get', '/api/2.0/docs/');

  it('gathers the methods of every route matching the path, parameters matching one non-empty segment', () => {
    expect([...table.methodsOf('/api/2.0/guides')].sort()).toEqual(['GET', 'POST']);
    expect([...table.methodsOf('/api/2.0/guides/featured')].sort()).toEqual(['GET', 'PATCH']);
    expect([...table.methodsOf('/api/2.0/guides/12')].sort()).toEqual(['GET', 'PATCH']);
    expect(table.methodsOf('/api/2.0/guides/12/steps').size).toBe(0);
    expect(table.methodsOf('/api/2.0//guides').size).toBe(0);
  });

  it('matches as Express routes do: case-sensitively, one trailing slash optional on either side', () => {
    expect(table.methodsOf('/api/2.0/Guides').size).toBe(0);
    expect([...table.methodsOf('/api/2.0/guides/')].sort()).toEqual(['GET', 'POST']);
    expect(table.methodsOf('/api/2.0/guides//').size).toBe(0);
    expect([...table.methodsOf('/api/2.0/docs')]).toEqual(['GET']);
  });

  it('refuses a route pattern it could not match as Express does', () => {
    for (const path of ['/files/*path', '/a{/:b}', '/a/:b?', '/(a|b)']) expect(() => new RouteTable().add('GET', path)).toThrow(/only literal segments/);
  });
});
