/**
 * ra-core's react-router adapter (ra-core/dist/routing/adapters/reactRouterProvider.js) less
 * the router it makes for an <Admin> that is not inside one: ours always are, under main.tsx's
 * BrowserRouter. That router (createHashRouter, RouterProvider) is react-router's whole data
 * router, and since the public pages need react-router too, it landed in every page's first
 * download. vite.config.ts builds ra-core with this file in place of its own.
 */
import type { RouterNavigateFunction, RouterProvider } from 'ra-core';
import { createElement, Fragment, useCallback, useContext, useEffect, useRef, type ReactNode } from 'react';
import {
  Link,
  matchPath,
  Navigate,
  Outlet,
  Route,
  Routes,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_NavigationContext,
  useBlocker,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate as useReactRouterNavigate,
  useParams,
} from 'react-router-dom';

/** Blocking a navigation needs a data router (BrowserRouter is not one: forms do not block). */
const useCanBlock = () => Boolean(useContext(UNSAFE_DataRouterContext) && useContext(UNSAFE_DataRouterStateContext));

/** A change of the query alone: "this page, with other parameters". */
const onlyQuery = (to: unknown) => (typeof to === 'string' ? to.startsWith('?') : typeof to === 'object' && to !== null && !(to as { pathname?: string }).pathname && 'search' in to);

/**
 * A navigate function that stays the same across navigations (react-router's changes with each one).
 * A change of the query alone belongs to the page it was made on: once the router has moved to
 * another page, it is dropped. react-admin applies a list's typed search 500 ms after the last
 * keystroke, and then on the next tick; a row clicked in between opens its record, and the late
 * search would take the person back to the list (seen on a busy CI machine, past ListPage's check).
 */
const useNavigate = (): RouterNavigateFunction => {
  const navigate = useReactRouterNavigate() as RouterNavigateFunction;
  const { pathname } = useLocation();
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const latest = useRef({ navigate, pathname });
  useEffect(() => {
    latest.current = { navigate, pathname };
  }, [navigate, pathname]);
  return useCallback(
    (...args: Parameters<RouterNavigateFunction>) => {
      // Where the router is now, even before the page for it is drawn (BrowserRouter: the browser's address).
      const now = (navigator as { location?: { pathname: string } }).location?.pathname ?? window.location.pathname;
      if (onlyQuery(args[0]) && now !== latest.current.pathname) return;
      return latest.current.navigate(...args);
    },
    [navigator],
  ) as RouterNavigateFunction;
};

const RouterWrapper = ({ children }: { basename?: string; children: ReactNode }) => createElement(Fragment, null, children);

export const reactRouterProvider: RouterProvider = {
  useNavigate,
  useLocation,
  useParams: useParams as RouterProvider['useParams'],
  useBlocker,
  useMatch,
  useInRouterContext,
  useCanBlock,
  Link,
  Navigate,
  Route: Route as RouterProvider['Route'],
  Routes,
  Outlet,
  RouterWrapper,
  matchPath,
};
