import { createFileRoute } from '@tanstack/react-router';
import { VerifyKeyPage } from '../features/keys';

export const Route = createFileRoute('/keys')({ component: VerifyKeyPage });
