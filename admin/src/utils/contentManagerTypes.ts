import type * as React from 'react';
import type { DescriptionComponent } from '@strapi/strapi/admin';

/**
 * What the content manager passes to, and expects from, the plugin's bulk action and edit view
 * panel (`addBulkAction`, `addEditViewSidePanel`). `@strapi/strapi/admin` does not export the
 * content manager's own types, so the parts the plugin uses are written down here.
 */

interface CMDocument {
  documentId: string;
  locale?: unknown;
  updatedAt?: unknown;
  publishedAt?: unknown;
  status?: unknown;
  [field: string]: unknown;
}

export interface BulkActionProps {
  documents: CMDocument[];
  model: string;
  collectionType: string;
}

export interface BulkActionDescription {
  label: string;
  icon?: React.ReactNode;
  variant?: 'default' | 'secondary' | 'tertiary' | 'danger' | 'danger-light' | 'success' | 'success-light' | 'ghost';
  dialog?: { type: 'modal'; title: string; content: React.ComponentType<{ onClose: () => void }> };
}

export type BulkActionComponent = DescriptionComponent<BulkActionProps, BulkActionDescription>;

export interface PanelProps {
  model: string;
  documentId?: string;
  document?: CMDocument;
  collectionType: string;
  activeTab: 'draft' | 'published' | null;
}

export interface PanelDescription {
  title: string;
  content: React.ReactNode;
}

export type PanelComponent = DescriptionComponent<PanelProps, PanelDescription>;

/** The content manager's `apis` as the plugin registers with them (`getPlugin('content-manager').apis`). */
export type ContentManagerApis = {
  addEditViewSidePanel(panels: PanelComponent[]): void;
  addBulkAction(actions: BulkActionComponent[]): void;
};

/** A list view row as a column's `cellFormatter` receives it. */
export interface ListRow {
  documentId: string;
  locale?: string | null;
}

/**
 * A column the `Admin/CM/pages/ListView/inject-column-in-table` hook adds: the list view
 * translates a descriptor label and renders the cell with `cellFormatter`.
 */
export interface InjectedListColumn {
  attribute: { type: string };
  label: { id: string; defaultMessage: string };
  name: string;
  searchable: boolean;
  sortable: boolean;
  cellFormatter: (row: ListRow, header: unknown, meta: { model: string }) => React.ReactNode;
}
