// Placeholder: the bundled agent is being built (issue 3).
process.stderr.write('acp-native agent: not implemented yet\n');
process.exit(1);
