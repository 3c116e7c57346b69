"use client";

import { useEffect, useRef, type RefObject } from "react";
import type { FormState } from "@/lib/forms/form-state";

/**
 * After a submission fails, moves keyboard and screen-reader focus to the first invalid field (whose
 * errors are read with it), or to the form's alert when no field is at fault. After a success, focus
 * goes to the success message when `focusSuccess` is set. Runs once per new state object.
 */
export function useFocusOnResult(formRef: RefObject<HTMLElement | null>, state: FormState, options: { focusSuccess?: boolean } = {}) {
  const previous = useRef(state);
  const { focusSuccess = false } = options;
  useEffect(() => {
    if (previous.current === state) return;
    previous.current = state;
    const root = formRef.current;
    if (!root) return;
    if (state.status === "error") {
      const target = root.querySelector<HTMLElement>('[aria-invalid="true"]') ?? root.querySelector<HTMLElement>('[data-form-alert="error"]');
      target?.focus();
    } else if (state.status === "success" && focusSuccess) {
      root.querySelector<HTMLElement>('[data-form-alert="success"]')?.focus();
    }
  }, [formRef, state, focusSuccess]);
}
