{
  "targets": [
    {
      "target_name": "json_native",
      "sources": ["src/addon.cc", "src/py-json-dump.cc", "src/scan-container.cc"],
      "cflags_cc": ["-std=c++17", "-O2"]
    }
  ]
}
