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
  useBlocker,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate as useReactRouterNavigate,
  useParams,
} from 'react-router-dom';

/** Blocking a navigation needs a data router (BrowserRouter is not one: forms do not block). */
const useCanBlock = () => Boolean(useContext(UNSAFE_DataRouterContext) && useContext(UNSAFE_DataRouterStateContext));

/** A navigate function that stays the same across navigations (react-router's changes with each one). */
const useNavigate = (): RouterNavigateFunction => {
  const navigate = useReactRouterNavigate() as RouterNavigateFunction;
  const latest = useRef(navigate);
  useEffect(() => {
    latest.current = navigate;
  }, [navigate]);
  return useCallback((...args: Parameters<RouterNavigateFunction>) => latest.current(...args), []) as RouterNavigateFunction;
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
