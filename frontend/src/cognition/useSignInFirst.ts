import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../app/auth/index.ts';
import { loginRedirect } from '../app/guard.ts';

/**
 * Runs an action that needs an account, or sends a signed-out visitor to sign in and come back here
 * (browsing stays open to them; making and collecting do not).
 */
export function useSignInFirst(): { signedIn: boolean; requireSignIn: (action: () => void) => void } {
  const { status } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const signedIn = status === 'authenticated';
  const requireSignIn = useCallback(
    (action: () => void) => {
      if (signedIn) action();
      else navigate(loginRedirect(location));
    },
    [signedIn, navigate, location],
  );
  return { signedIn, requireSignIn };
}
