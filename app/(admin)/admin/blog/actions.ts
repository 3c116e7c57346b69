"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { formError } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { blogEndpoints } from "@/lib/http/endpoints/content";
import type { DomainError } from "@/lib/services/errors";
import { createPost, deletePost, postSlug, updatePost } from "@/lib/services/content";
import { postFormInput, postFormValues } from "./post-form";

const BLOG_PATH = "/admin/blog";

/** The editor names the post by its id in `postId` (the API's `{slugOrId}`, which PATCH and DELETE read as the id). */
const fields = { slugOrId: "postId" } as const;

/** A taken slug (409) belongs beside the slug field. */
function slugConflict(error: DomainError, values: Record<string, string> | undefined): FormState | undefined {
  if (error.code !== "CONFLICT") return undefined;
  return formError("Check the fields marked below.", values, { slug: [error.message] });
}

function refreshBlog(slug?: string) {
  revalidatePath(BLOG_PATH);
  revalidatePath("/blog");
  if (slug) revalidatePath(`/blog/${slug}`);
}

/** POST /blog: the slug comes from the title when left blank. */
export const createPostAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  blogEndpoints.create,
  {
    returnTo: `${BLOG_PATH}/new`,
    read: (formData) => postFormInput(formData, () => undefined),
    values: postFormValues,
    onError: slugConflict,
  },
  async ({ ctx, input }) => {
    const post = await createPost(ctx, input);
    refreshBlog(post.slug);
    redirect(`${BLOG_PATH}/${post.id}?notice=created`);
  },
);

/** PATCH /blog/:id with every field of the editor (a blank slug is the title's). */
export const updatePostAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  blogEndpoints.update,
  {
    fields,
    returnTo: BLOG_PATH,
    read: (formData) => postFormInput(formData, (title) => (title ? postSlug(title) : undefined)),
    values: postFormValues,
    onError: slugConflict,
  },
  async ({ ctx, params, input }) => {
    const post = await updatePost(ctx, params.slugOrId, input);
    refreshBlog(post.slug);
    redirect(`${BLOG_PATH}/${post.id}?notice=saved`);
  },
);

/** DELETE /blog/:id, confirmed on the editor's page; back to the list. */
export const deletePostAction: (formData: FormData) => Promise<void> = rowAction.for(
  blogEndpoints.remove,
  { fields, returnTo: BLOG_PATH, onError: whenNotFound(`${BLOG_PATH}?notice=missing`), revalidate: () => refreshBlog() },
  async ({ ctx, params }) => {
    await deletePost(ctx, params.slugOrId);
    return `${BLOG_PATH}?notice=deleted`;
  },
);
