export {
  PatternError,
  applyConstraint,
  buildPath,
  compareSpecificity,
  constraintKey,
  parseIntConstraint,
  parsePattern,
  specificity,
} from './pattern.ts';
export type {
  Constraint,
  IntConstraint,
  ParamSegment,
  ParamValue,
  Params,
  ParsedPattern,
  RegexConstraint,
  Segment,
  StaticSegment,
  WildcardSegment,
} from './pattern.ts';
export { hasTrailingSlash, joinPaths, normalizePath, safeDecode, splitPath, splitUrl } from './path.ts';
export type { NormalizeOptions, SplitUrl, TrailingSlashPolicy } from './path.ts';
export { buildQuery, getAll, getFirst, getInt, parseQuery, withQuery } from './query.ts';
export type { ArrayFormat, BuildQueryOptions, BuildableValue, ParseQueryOptions, Query, QueryValue } from './query.ts';
export { SegmentTree, TreeNode } from './tree.ts';
export type { TreeMatch, TreeOptions } from './tree.ts';
export { ANY_METHOD, RouteConflictError, Router, normalizeMethod } from './router.ts';
export type { MatchResult, Route, RouteOptions, RouterOptions } from './router.ts';
