import { handleRemove } from "@/lib/operator/console-routes";

type Context = { params: Promise<{ id: string }> };

export async function POST(request: Request, { params }: Context) {
  return handleRemove(request, (await params).id);
}
