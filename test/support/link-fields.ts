/**
 * The fields of a link on the wire (Link/Get, and each item of Link/List), in the order of
 * the interface spec (§4.3), with redirectCnt after clickCnt. Written out rather than taken
 * from the code, so that the tests hold the code to the spec.
 */
export const LINK_FIELDS = [
  'id',
  'status',
  'moderatorStatus',
  'clickCnt',
  'redirectCnt',
  'createTs',
  'expirationDate',
  'code',
  'fullLink',
  'shortLink',
  'comment',
  'moderatorComment',
];
