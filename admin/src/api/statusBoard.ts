import * as React from 'react';
import { getFetchClient } from '@strapi/strapi/admin';
import { createSpeechApi } from './client';
import { StatusBoard, type Fetcher } from './statusBoardCore';

const fetchStatuses: Fetcher = (contentType, documentIds) => createSpeechApi(getFetchClient()).statuses(contentType, documentIds);

const boards = new Map<string, StatusBoard>();

export function statusBoard(contentType: string): StatusBoard {
  let board = boards.get(contentType);
  if (!board) {
    board = new StatusBoard(contentType, fetchStatuses);
    boards.set(contentType, board);
  }
  return board;
}

/** The narration rows of one document in the list view (undefined while loading). */
export function useListStatus(contentType: string, documentId: string) {
  const board = statusBoard(contentType);
  React.useSyncExternalStore(board.subscribe, board.getVersion, board.getVersion);
  React.useEffect(() => board.register(documentId), [board, documentId]);
  return { rows: board.rowsFor(documentId), queue: board.queue, failed: board.failed };
}
