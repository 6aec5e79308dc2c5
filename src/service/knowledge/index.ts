/** The knowledge module: extraction, indexing, retrieval and grounded answering. */
export * from './types';
export { extractDocument } from './extract';
export { KnowledgeBase, NOT_FOUND_ANSWER, type KnowledgeOptions } from './knowledge-base';
export { knowledgeOptionsFromEnv } from './options';
