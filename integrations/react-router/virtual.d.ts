// Types of the plugin's virtual module (the same as @svc/vite's): add
// `/// <reference types="@svc/react-router/virtual" />`.
/// <reference types="@svc/vite/virtual" />
