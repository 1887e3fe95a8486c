/**
 * The screens and their addresses. Hash history, because the page is served from Electron's `app://` protocol and
 * from the browser host's `/`, and neither answers deep paths with the page.
 */
import { createRouter, createWebHashHistory, type Router } from 'vue-router';
import ActivityPage from './views/activity/ActivityPage.vue';
import BuildingPage from './views/buildings/BuildingPage.vue';
import CatalogueItemPage from './views/catalogues/CatalogueItemPage.vue';
import CataloguesPage from './views/catalogues/CataloguesPage.vue';
import ConnectionsPage from './views/connections/ConnectionsPage.vue';
import DropFoldersPage from './views/dropfolders/DropFoldersPage.vue';
import FilePage from './views/files/FilePage.vue';
import ImportReportPage from './views/files/ImportReportPage.vue';
import PassportsPage from './views/passports/PassportsPage.vue';
import PortfolioPage from './views/portfolios/PortfolioPage.vue';
import PortfoliosPage from './views/portfolios/PortfoliosPage.vue';
import SettingsPage from './views/settings/SettingsPage.vue';

/** The named routes: the navigation's, and the pages a portfolio opens into. */
export const ROUTE_NAMES = {
  portfolios: 'portfolios',
  portfolio: 'portfolio',
  building: 'building',
  file: 'file',
  fileReport: 'file-report',
  dropFolders: 'drop-folders',
  passports: 'passports',
  activity: 'activity',
  connections: 'connections',
  settings: 'settings',
  catalogues: 'catalogues',
  catalogueItem: 'catalogue-item',
} as const;

/** Creates the router; the portfolios are the first screen. */
export function createAppRouter(): Router {
  return createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', redirect: { name: ROUTE_NAMES.portfolios } },
      { path: '/portfolios', name: ROUTE_NAMES.portfolios, component: PortfoliosPage },
      { path: '/portfolios/:portfolioId', name: ROUTE_NAMES.portfolio, component: PortfolioPage },
      { path: '/buildings/:buildingId', name: ROUTE_NAMES.building, component: BuildingPage },
      { path: '/buildings/:buildingId/files/:fileId', name: ROUTE_NAMES.file, component: FilePage },
      { path: '/buildings/:buildingId/files/:fileId/report', name: ROUTE_NAMES.fileReport, component: ImportReportPage },
      { path: '/catalogues', redirect: { name: ROUTE_NAMES.catalogues, params: { kind: 'materials' } } },
      { path: '/catalogues/:kind(materials|products)', name: ROUTE_NAMES.catalogues, component: CataloguesPage },
      { path: '/catalogues/:kind(materials|products)/:itemId', name: ROUTE_NAMES.catalogueItem, component: CatalogueItemPage },
      { path: '/drop-folders', name: ROUTE_NAMES.dropFolders, component: DropFoldersPage },
      { path: '/passports', name: ROUTE_NAMES.passports, component: PassportsPage },
      { path: '/activity', name: ROUTE_NAMES.activity, component: ActivityPage },
      { path: '/connections', name: ROUTE_NAMES.connections, component: ConnectionsPage },
      { path: '/settings', name: ROUTE_NAMES.settings, component: SettingsPage },
      { path: '/:unknown(.*)*', redirect: { name: ROUTE_NAMES.portfolios } },
    ],
  });
}
