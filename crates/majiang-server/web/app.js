// The browser UI is ES modules under web/js/ (index.html loads js/main.js); this file is empty
// and stays only while the server embeds it by name (src/http.rs).
