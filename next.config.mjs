/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Says nothing a visitor needs and tells scanners what to try.
  poweredByHeader: false,
};

export default nextConfig;
