// The fields of Weave's request models for the operations Weft implements, copied by hand from
// Weave's source (weave/trace_server/trace_server_interface.py @00439504b81e and the newest head's
// weave/shared/trace_server_interface.py @28507bca73e5, TSI and TSI+ in
// ../shared/reference/weave-python-wire.md), never derived from Weft's spec: a field Weave has
// and Weft forgot must show up in request-fields.test.ts.
//
// Multipart file/create and the REST-shaped annotation queue read/update/delete (path ids in
// Weft's interface) are left out: their fields are not JSON body keys.

export const WEAVE_REQUEST_MODELS = {
  StartedCallSchemaForInsert: [
    'project_id',
    'id',
    'op_name',
    'display_name',
    'trace_id',
    'parent_id',
    'thread_id',
    'turn_id',
    'started_at',
    'attributes',
    'inputs',
    'otel_dump',
    'wb_user_id',
    'wb_run_id',
    'wb_run_step',
  ],
  // TSI+ adds trace_id, is_eval and started_at.
  EndedCallSchemaForInsert: [
    'project_id',
    'id',
    'trace_id',
    'is_eval',
    'ended_at',
    'started_at',
    'exception',
    'output',
    'summary',
    'wb_run_step_end',
  ],
  CallReadReq: ['project_id', 'id', 'include_costs', 'include_storage_size', 'include_total_storage_size'],
  CallUpdateReq: ['project_id', 'call_id', 'display_name', 'wb_user_id'],
  CallsDeleteReq: ['project_id', 'call_ids', 'wb_user_id'],
  // TSI+ adds latest_only and include_usernames.
  CallsQueryReq: [
    'project_id',
    'filter',
    'limit',
    'offset',
    'latest_only',
    'sort_by',
    'query',
    'include_costs',
    'include_feedback',
    'include_storage_size',
    'include_total_storage_size',
    'include_usernames',
    'columns',
    'expand_columns',
    'return_expanded_column_values',
  ],
  CallsFilter: [
    'op_names',
    'input_refs',
    'output_refs',
    'parent_ids',
    'trace_ids',
    'call_ids',
    'thread_ids',
    'turn_ids',
    'trace_roots_only',
    'wb_user_ids',
    'wb_run_ids',
  ],
  CallsQueryStatsReq: ['project_id', 'filter', 'query', 'limit', 'include_total_storage_size', 'expand_columns'],
  // TSI+ adds expected_digest; set_base_object_class is excluded from dumps but still parsed.
  ObjSchemaForInsert: ['project_id', 'object_id', 'val', 'builtin_object_class', 'set_base_object_class', 'expected_digest', 'wb_user_id'],
  ObjDeleteReq: ['project_id', 'object_id', 'digests'],
  // TSI+ adds include_tags_and_aliases, and tags and aliases to the filter.
  ObjReadReq: ['project_id', 'object_id', 'digest', 'metadata_only', 'include_tags_and_aliases'],
  ObjQueryReq: ['project_id', 'filter', 'limit', 'offset', 'sort_by', 'metadata_only', 'include_storage_size', 'include_tags_and_aliases'],
  ObjectVersionFilter: [
    'base_object_classes',
    'exclude_base_object_classes',
    'leaf_object_classes',
    'object_ids',
    'is_op',
    'latest_only',
    'tags',
    'aliases',
  ],
  ObjAddTagsReq: ['project_id', 'object_id', 'digest', 'tags', 'wb_user_id'],
  ObjRemoveTagsReq: ['project_id', 'object_id', 'digest', 'tags', 'wb_user_id'],
  ObjSetAliasesReq: ['project_id', 'object_id', 'digest', 'aliases', 'wb_user_id'],
  ObjRemoveAliasesReq: ['project_id', 'object_id', 'aliases', 'wb_user_id'],
  TableSchemaForInsert: ['project_id', 'rows', 'expected_digest'],
  TableQueryReq: ['project_id', 'digest', 'filter', 'limit', 'offset', 'sort_by'],
  TableRowFilter: ['row_digests'],
  TableQueryStatsReq: ['project_id', 'digest'],
  TableQueryStatsBatchReq: ['project_id', 'digests', 'include_storage_size'],
  TableUpdateReq: ['project_id', 'base_digest', 'updates'],
  RefsReadBatchReq: ['refs'],
  FileContentReadReq: ['project_id', 'digest'],
  // TSI+ (newest): the client's id, the queue, and the scorer and span fields of agent monitors.
  FeedbackCreateReq: [
    'id',
    'project_id',
    'weave_ref',
    'creator',
    'feedback_type',
    'payload',
    'annotation_ref',
    'runnable_ref',
    'call_ref',
    'trigger_ref',
    'queue_id',
    'scorer_tags',
    'scorer_tag_reasons',
    'scorer_tag_confidences',
    'scorer_ratings',
    'scorer_rating_reasons',
    'scorer_rating_confidences',
    'span_agent_name',
    'span_agent_version',
    'span_status_code',
    'span_conversation_id',
    'span_trace_id',
    'scorer_trace_id',
    'wb_user_id',
  ],
  FeedbackQueryReq: ['project_id', 'fields', 'query', 'sort_by', 'limit', 'offset'],
  FeedbackPurgeReq: ['project_id', 'query'],
  AnnotationQueueCreateReq: ['project_id', 'name', 'description', 'scorer_refs', 'wb_user_id'],
  AnnotationQueuesQueryReq: ['project_id', 'name', 'sort_by', 'limit', 'offset'],
  // TSI+ adds the cache prices.
  CostCreateReq: ['project_id', 'costs', 'wb_user_id'],
  CostCreateInput: [
    'prompt_token_cost',
    'completion_token_cost',
    'prompt_token_cost_unit',
    'completion_token_cost_unit',
    'effective_date',
    'provider_id',
    'cache_read_input_token_cost',
    'cache_creation_input_token_cost',
  ],
  CostQueryReq: ['project_id', 'fields', 'query', 'sort_by', 'limit', 'offset'],
  CostPurgeReq: ['project_id', 'query'],
  SortBy: ['field', 'direction'],
} as const;

export type WeaveModel = keyof typeof WEAVE_REQUEST_MODELS;

/**
 * The models above that Weave declares as plain pydantic BaseModels (extra keys ignored, not
 * forbidden): Weft ignores an extra key there too, so a Weave SDK that sends a field Weft does
 * not know loses nothing (the TypeScript SDK sends `display_name` on call ends). Every other model
 * is a BaseModelStrict (extra="forbid") in the Weave releases these SDKs talk to, and stays closed.
 */
export const WEAVE_LENIENT_MODELS: ReadonlySet<WeaveModel> = new Set<WeaveModel>([
  'StartedCallSchemaForInsert',
  'EndedCallSchemaForInsert',
  'ObjSchemaForInsert',
  'TableSchemaForInsert',
]);
