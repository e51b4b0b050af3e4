"use client";

import { useEffect, useRef, useState } from "react";
import { fetchChallenge, type ServerChallenge } from "@/lib/waitlist/submit";

export type ChallengeState = { status: "loading" } | { status: "ready"; current: ServerChallenge } | { status: "failed" };

// The latest token of this page visit, shared by every form the dialog mounts
// ("Add another company" mounts a new one), so each new question keeps the
// visit's start time and differs from the last (lib/waitlist/challenge-token.ts).
let lastToken: string | null = null;

/**
 * The security question, issued by the server: a new one each time the dialog
 * opens (`openCount` changes) and whenever `renew` is called.
 */
export function useServerChallenge(openCount: number) {
  const [state, setState] = useState<ChallengeState>({ status: "loading" });
  const [requested, setRequested] = useState({ openCount, renewals: 0 });
  const latestRequest = useRef(0);

  // A new opening: forget the old question at once, so it is never shown or answered.
  if (requested.openCount !== openCount) {
    setRequested({ openCount, renewals: requested.renewals });
    setState({ status: "loading" });
  }

  useEffect(() => {
    const request = ++latestRequest.current;
    void fetchChallenge(lastToken).then((issued) => {
      // A slower, older request must not replace a newer question.
      if (request !== latestRequest.current) return;
      if (issued) lastToken = issued.token;
      setState(issued ? { status: "ready", current: issued } : { status: "failed" });
    });
  }, [requested]);

  function renew() {
    setState({ status: "loading" });
    setRequested((current) => ({ ...current, renewals: current.renewals + 1 }));
  }

  return { state, renew };
}
