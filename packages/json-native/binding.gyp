{
  "targets": [
    {
      "target_name": "json_native",
      "sources": ["src/addon.cc", "src/py-json-dump.cc", "src/scan-container.cc", "src/stored-json.cc"],
      "cflags_cc": ["-std=c++17", "-O2"],
      "conditions": [
        [
          "OS=='mac'",
          {
            "xcode_settings": {
              "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
              "CLANG_CXX_LIBRARY": "libc++",
              "GCC_OPTIMIZATION_LEVEL": "2",
              "MACOSX_DEPLOYMENT_TARGET": "13.3"
            }
          }
        ]
      ]
    }
  ]
}
