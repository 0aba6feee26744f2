import { describe, expect, test, vi } from "vitest";
import { defineWorkflow, stop, type Step } from "./workflow.server";

/** A workflow over a list that records what each step did and undid, with the receipts its compensations got. */
function recorder() {
  const log: string[] = [];
  const doing = (name: string, extra: Partial<Step<string[], string>> = {}): Step<string[], string> => ({
    name,
    run: async () => {
      log.push(`run ${name}`);
      return `${name}-receipt`;
    },
    compensate: async (_context, receipt) => {
      log.push(`undo ${name} with ${String(receipt)}`);
    },
    ...extra,
  });
  return { log, doing };
}

describe("the workflow runner", () => {
  test("runs every step in order and keeps each receipt", async () => {
    const { log, doing } = recorder();
    const flow = defineWorkflow("three", [doing("a"), doing("b"), doing("c")]);
    const result = await flow.run([]);
    expect(log).toEqual(["run a", "run b", "run c"]);
    expect(result.ok && [...result.receipts.entries()]).toEqual([
      ["a", "a-receipt"],
      ["b", "b-receipt"],
      ["c", "c-receipt"],
    ]);
    expect(flow.stepNames).toEqual(["a", "b", "c"]);
  });

  test("a refusal undoes what ran, last first, each compensation with its own receipt; the refusal's partial receipt goes to its own", async () => {
    const { log, doing } = recorder();
    const flow = defineWorkflow("refusing", [
      doing("a"),
      doing("b"),
      doing("c", {
        run: async () => {
          log.push("run c");
          return stop("no stock", "half of c");
        },
      }),
      doing("d"),
    ]);
    const result = await flow.run([]);
    expect(result).toEqual({ ok: false, stop: "no stock", kept: false });
    expect(log).toEqual([
      "run a",
      "run b",
      "run c",
      "undo c with half of c",
      "undo b with b-receipt",
      "undo a with a-receipt",
    ]);
  });

  test("a step that throws is undone without a receipt, the ones before with theirs, and the error reaches the caller", async () => {
    const { log, doing } = recorder();
    const flow = defineWorkflow("throwing", [
      doing("a"),
      doing("b", {
        run: async () => {
          throw new Error("database away");
        },
      }),
    ]);
    await expect(flow.run([])).rejects.toThrow("database away");
    expect(log).toEqual(["run a", "undo b with undefined", "undo a with a-receipt"]);
  });

  test("a failure between steps (the tests' seam) undoes the step that ran with its full receipt", async () => {
    const { log, doing } = recorder();
    const flow = defineWorkflow("seam", [doing("a"), doing("b"), doing("c")]);
    await expect(
      flow.run([], {
        afterStep: (name) => {
          if (name === "b") throw new Error("cut after b");
        },
      }),
    ).rejects.toThrow("cut after b");
    expect(log).toEqual(["run a", "run b", "undo b with b-receipt", "undo a with a-receipt"]);
  });

  test("a compensation that says its work was kept stops the undo there", async () => {
    const { log, doing } = recorder();
    const flow = defineWorkflow("kept", [
      doing("a"),
      doing("b", {
        compensate: async () => {
          log.push("b kept");
          return "kept";
        },
      }),
      doing("c", { run: async () => stop("late") }),
    ]);
    expect(await flow.run([])).toEqual({ ok: false, stop: "late", kept: true });
    expect(log).toEqual(["run a", "run b", "undo c with undefined", "b kept"]);
  });

  test("after the committing step nothing is undone: a failure ends the run and names the sweep that finishes it", async () => {
    const { log, doing } = recorder();
    const flow = defineWorkflow("committed", [
      doing("a"),
      doing("commit", { commits: true }),
      doing("mail", {
        finishedBy: "the mail sweep",
        run: async () => {
          log.push("run mail");
          throw new Error("smtp away");
        },
      }),
      doing("audit", { finishedBy: "nobody" }),
    ]);
    const result = await flow.run([]);
    expect(result.ok && result.unfinished).toMatchObject({ step: "mail", finishedBy: "the mail sweep" });
    expect(log).toEqual(["run a", "run commit", "run mail"]);
  });

  test("a failure just after the committing step leaves the next step to its sweep", async () => {
    const { log, doing } = recorder();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const flow = defineWorkflow("cut", [
      doing("commit", { commits: true }),
      doing("event", { finishedBy: "the event sweep" }),
    ]);
    const result = await flow.run([], {
      afterStep: () => {
        throw new Error("killed");
      },
    });
    expect(result.ok && result.unfinished?.step).toBe("event");
    expect(log).toEqual(["run commit"]);
    vi.restoreAllMocks();
  });

  test("a step after the commit without a sweep to finish it, or that refuses, is a mistake in the workflow", async () => {
    const { doing } = recorder();
    expect(() => defineWorkflow("loose", [doing("commit", { commits: true }), doing("after")])).toThrow(
      "loose: after runs after the commit with no sweep",
    );
    const refusing = defineWorkflow("late refusal", [
      doing("commit", { commits: true }),
      doing("after", { finishedBy: "the sweep", run: async () => stop("no") }),
    ]);
    await expect(refusing.run([])).rejects.toThrow("late refusal: after refused after the commit");
  });

  test("a resumed run starts at the named step; the steps before it are undone from the documents (no receipt)", async () => {
    const { log, doing } = recorder();
    const flow = defineWorkflow("resumed", [
      doing("a"),
      doing("b", { resume: async () => (log.push("resume b"), stop("too late")) }),
    ]);
    expect(await flow.run([], { resumeAt: "b" })).toEqual({ ok: false, stop: "too late", kept: false });
    expect(log).toEqual(["resume b", "undo b with undefined", "undo a with undefined"]);
    await expect(flow.run([], { resumeAt: "z" })).rejects.toThrow("resumed has no step named z");
  });
});
