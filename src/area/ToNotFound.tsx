/** Unknown paths inside an area go to the app's own /404 page. */
import { Navigate } from 'react-router-dom';

export function ToNotFound() {
  return <Navigate to="/404" replace />;
}
