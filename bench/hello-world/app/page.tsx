export default function Page() {
  return (
    <main>
      <h1>Hello, world</h1>
    </main>
  );
}
