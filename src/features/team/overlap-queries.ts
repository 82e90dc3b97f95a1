import { queryOptions } from '@tanstack/react-query';
import { overlapApi } from './overlap-api';
import { HUB_QUERY_KEY } from './queries';

export const OVERLAP_KEY = [...HUB_QUERY_KEY, 'overlap'] as const;

export const overlapSettingsQuery = () => queryOptions({ queryKey: [...OVERLAP_KEY, 'settings'], queryFn: overlapApi.settings });
export const disagreementsQuery = () => queryOptions({ queryKey: [...OVERLAP_KEY, 'disagreements'], queryFn: overlapApi.disagreements });
export const agreementQuery = () => queryOptions({ queryKey: [...OVERLAP_KEY, 'agreement'], queryFn: overlapApi.agreement });
export const figuresQuery = () => queryOptions({ queryKey: [...OVERLAP_KEY, 'figures'], queryFn: overlapApi.figures });
