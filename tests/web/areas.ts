/** Each area's screens and declarations as its app makes them, from the area's list of features. */
import { areaContents } from '../../src/area/features';
import { customerFeatures } from '../../src/customer/features';
import { operatorFeatures } from '../../src/operator/features';

export const featuresOf = { admin: customerFeatures, manage: operatorFeatures } as const;

export const screensOf = (area: 'admin' | 'manage') => areaContents(area, featuresOf[area]).screens;

export const declarationsOf = (area: 'admin' | 'manage') => areaContents(area, featuresOf[area]).declarations;
