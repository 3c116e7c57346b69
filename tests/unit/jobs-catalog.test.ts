import { describe, expect, it } from "vitest";
import { jobCatalog } from "@/lib/jobs/catalog";
import { registeredJobs } from "@/lib/jobs/registry";

describe("the job catalog", () => {
  it("names exactly the registered jobs, with the options their handlers run under", () => {
    expect(registeredJobs.map((job) => job.name).sort()).toEqual(Object.keys(jobCatalog).sort());
    for (const job of registeredJobs) {
      const { name, handler, ...options } = job;
      expect(typeof handler, name).toBe("function");
      expect(options, name).toEqual(jobCatalog[name]);
    }
  });
});
