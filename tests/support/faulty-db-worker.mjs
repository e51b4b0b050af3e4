// The database thread with the fault probe loaded first, for tests/db/worker-connection.test.ts.
import "./fault-probe.cjs";
import "../../lib/db/worker.mjs";
