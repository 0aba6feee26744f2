/** The least a page can be: one paragraph, no loader. */
export default function Hello() {
  return <p>Hello</p>;
}
