"""Mail in and mail out: decoding, filtering, composing, transports, and the mail corpus."""
