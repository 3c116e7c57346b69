"use client";

import { ContentEditor } from "@/components/admin/content-editor";
import { MarkdownField } from "@/components/content/markdown-field";
import { TextAreaField, TextField } from "@/components/forms/field";
import { fieldError } from "@/lib/forms/form-state";
import { createPostAction, updatePostAction } from "./actions";
import { POST_TEXT_FIELDS } from "./post-form";

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

/**
 * The post editor, for a new post or an existing one, with a live preview of the Markdown rendered by
 * the same component as the public page (the preview shows the saved text without JavaScript).
 */
export function PostEditor({ post }: { post?: EditablePost }) {
  return (
    <ContentEditor
      kind="post"
      entry={post}
      actions={{ create: createPostAction, update: updatePostAction }}
      idField="postId"
      fields={POST_TEXT_FIELDS}
      visibility={{ name: "published", label: "Published (shown on the blog and in the RSS feed)", initially: post?.published ?? false }}
    >
      {({ id, state, text }) => (
        <>
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
            errors={fieldError(state, "excerpt")}
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
            errors={fieldError(state, "content")}
            rows={18}
            maxLength={100_000}
            defaultValue={text("content", post?.content ?? "")}
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
        </>
      )}
    </ContentEditor>
  );
}
