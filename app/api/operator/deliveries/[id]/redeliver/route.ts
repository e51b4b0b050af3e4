import { handleRedeliver } from "@/lib/operator/console-routes";

type Context = { params: Promise<{ id: string }> };

export async function POST(request: Request, { params }: Context) {
  return handleRedeliver(request, (await params).id);
}
