"use client";

import { useActionState, useId, useRef } from "react";
import { MarkdownField } from "@/components/content/markdown-field";
import { TextAreaField, TextField } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";
import { createPostAction, updatePostAction } from "./actions";

/** A post as the editor starts from: the cover as stored (a path on this site or an https URL). */
export interface EditablePost {
  id: string;
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  coverImage: string | null;
  tags: string[];
  published: boolean;
}

const FIELDS = ["title", "slug", "excerpt", "content", "coverImage", "tags", "published"];

/**
 * The post editor, for a new post or an existing one, with a live preview of the Markdown rendered by
 * the same component as the public page. Works without JavaScript (the preview then shows the saved
 * text); a refused save keeps what was typed and shows each message beside its field.
 */
export function PostEditor({ post }: { post?: EditablePost }) {
  const [state, formAction] = useActionState<FormState, FormData>(post ? updatePostAction : createPostAction, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  useFocusOnResult(formRef, state);
  const values = state.values;
  const text = (name: string, fallback: string) => values?.[name] ?? fallback;
  const initialContent = text("content", post?.content ?? "");

  const excerptErrors = fieldError(state, "excerpt");
  const contentErrors = fieldError(state, "content");
  const otherErrors = Object.entries(state.fieldErrors ?? {})
    .filter(([name]) => !FIELDS.includes(name))
    .flatMap(([, messages]) => messages ?? []);

  return (
    <form ref={formRef} action={formAction} aria-label={post ? `Edit ${post.title}` : "New post"} className="flex flex-col gap-5" noValidate>
      <FormResultAlerts state={state} otherErrors={otherErrors} />
      {post ? <input type="hidden" name="postId" value={post.id} /> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField id={`${id}-title`} name="title" label="Title" maxLength={100} defaultValue={text("title", post?.title ?? "")} errors={fieldError(state, "title")} />
        <TextField
          id={`${id}-slug`}
          name="slug"
          label="Slug"
          optional
          hint="The post's address, /blog/<slug>: lower-case letters, digits and hyphens. Left blank, it is made from the title."
          maxLength={100}
          spellCheck={false}
          autoCapitalize="none"
          defaultValue={text("slug", post?.slug ?? "")}
          errors={fieldError(state, "slug")}
        />
      </div>
      <TextAreaField
        id={`${id}-excerpt`}
        name="excerpt"
        label="Excerpt"
        hint="One or two sentences for the list of posts, link previews and the RSS feed. Plain text, at most 500 characters."
        errors={excerptErrors}
        rows={2}
        maxLength={500}
        defaultValue={text("excerpt", post?.excerpt ?? "")}
      />
      <MarkdownField
        id={`${id}-content`}
        name="content"
        label="Content"
        hint={
          <>
            Markdown: <code>## Heading</code>, <code>- list item</code>, <code>**bold**</code>, <code>[link](https://…)</code>, <code>![picture](/blog/….svg)</code>. HTML is left out.
          </>
        }
        errors={contentErrors}
        rows={18}
        maxLength={100_000}
        defaultValue={initialContent}
        placeholder="The rendered post appears here as you type."
        previewTestId="post-preview"
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id={`${id}-cover`}
          name="coverImage"
          label="Cover image"
          optional
          hint="A path on this site (/blog/lost-mode.svg) or an https URL."
          maxLength={500}
          spellCheck={false}
          autoCapitalize="none"
          defaultValue={text("coverImage", post?.coverImage ?? "")}
          errors={fieldError(state, "coverImage")}
        />
        <TextField
          id={`${id}-tags`}
          name="tags"
          label="Tags"
          optional
          hint="Separated by commas; up to 10 of at most 30 characters."
          defaultValue={text("tags", post?.tags.join(", ") ?? "")}
          errors={fieldError(state, "tags")}
        />
      </div>
      <label className="flex items-center gap-2 text-sm font-semibold text-ink">
        <input type="checkbox" name="published" defaultChecked={values ? values.published === "on" : (post?.published ?? false)} className="h-5 w-5" />
        Published (shown on the blog and in the RSS feed)
      </label>
      <div>
        <SubmitButton pendingLabel="Saving…" className="w-full sm:w-auto">
          {post ? "Save the post" : "Create the post"}
        </SubmitButton>
      </div>
    </form>
  );
}
