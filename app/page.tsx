export default function HomePage() {
  return <main>FieldCrew</main>;
}
