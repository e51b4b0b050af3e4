import { handleSignupRequest, methodNotAllowed } from "@/lib/waitlist/handler";

export const POST = handleSignupRequest;

// Next would answer other methods with an empty 405; these say what to use instead.
export {
  methodNotAllowed as GET,
  methodNotAllowed as HEAD,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
  methodNotAllowed as OPTIONS,
};
