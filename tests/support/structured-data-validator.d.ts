/** The part of @adobe/structured-data-validator (no types of its own) that the tests use. */
declare module "@adobe/structured-data-validator" {
  export default class Validator {
    /** `schemaOrgJson`: schema.org's vocabulary; without it, only Google's rules are checked. */
    constructor(schemaOrgJson?: object);
    /** `data`: { jsonld: { [type]: objects } }, as @marbec/web-auto-extractor gives it. */
    validate(data: { jsonld: Record<string, object[]> }): Promise<unknown[]>;
  }
}
