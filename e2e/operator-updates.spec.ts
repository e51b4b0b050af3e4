/**
 * An update to part of the list, end to end in Chromium with passkey-signed-in operators (issue
 * 60): an admin writes it, is told what is wrong with bad input, checks the segment and the
 * preview, sends it with a double click, and sees one update and its progress; the email reaches
 * the visitor through a real SMTP server with its one-click unsubscribe; a member sees the updates
 * and no form. axe on the page.
 */
import AxeBuilder from "@axe-core/playwright";
import { mailsTo } from "./support/mail";
import { enrolNewOperator } from "./support/operator";
import { expect, test } from "./support/test";
import { signUpThroughApi, uniqueVisitor } from "./support/waitlist";

test.describe("updates to the list", () => {
  test("an admin checks and sends an update to a segment; the visitor gets it once; a member cannot send", async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const campaign = `update-${Date.now()}`;
    const visitor = { ...uniqueVisitor("update", "update.example.com"), contact_name: "Robin Update", utm_campaign: campaign };
    await signUpThroughApi(request, visitor);
    await enrolNewOperator(page, "updates", baseURL!);

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Updates" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Updates to the list" })).toBeVisible();
    const form = page.getByRole("region", { name: "Write an update" });
    await form.getByLabel("Subject").fill("HVAC scheduling is ready");
    await form.getByLabel("Message").fill("Hello {{name}},\n\n<b>Scheduling</b> is ready.");
    await form.getByLabel("Campaign").fill(campaign);
    await form.getByRole("button", { name: "Check" }).click();
    await expect(form.getByText("Write the message as plain text")).toBeVisible();

    await form.getByLabel("Message").fill("Hello {{name}},\n\nScheduling is ready for {{company}}.");
    await form.getByRole("button", { name: "Check" }).click();
    await expect(form.getByRole("heading", { name: /^1 entry gets it\./ })).toBeVisible();
    // Not confirmed yet: the preview leaves out what the visitor typed.
    await expect(form.getByText("Hello,\n\nScheduling is ready for your company.", { exact: false })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    await form.getByRole("button", { name: "Send to 1 entry" }).dblclick();
    await expect(form.getByRole("status")).toContainText(/Update #\d+ is on its way to 1 entries|This form had sent update #\d+ already/);
    const sent = page.getByRole("region", { name: "Sent updates" });
    await page.reload();
    await expect(sent.getByRole("heading", { name: /HVAC scheduling is ready/ })).toHaveCount(1);
    await expect
      .poll(async () => (await mailsTo(visitor.email)).filter((mail) => mail.subject === "HVAC scheduling is ready").length, {
        timeout: 20_000,
      })
      .toBe(1);
    const [update] = (await mailsTo(visitor.email)).filter((mail) => mail.subject === "HVAC scheduling is ready");
    expect(update!.text).toContain("Scheduling is ready for your company.");
    expect(update!.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    await page.reload();
    await expect(sent.getByRole("progressbar", { name: /1 of 1 sent/ })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    const memberContext = await browser.newContext();
    const member = await memberContext.newPage();
    await enrolNewOperator(member, "updates-member", baseURL!, "member");
    await member.goto("/operator/updates");
    await expect(member.getByText("Only an admin can send an update.")).toBeVisible();
    await expect(member.getByLabel("Subject")).toHaveCount(0);
    await expect(
      member.getByRole("region", { name: "Sent updates" }).getByRole("heading", { name: /HVAC scheduling is ready/ }),
    ).toHaveCount(1);
    await memberContext.close();
  });
});
